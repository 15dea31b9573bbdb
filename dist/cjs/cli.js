#!/usr/bin/env node
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// The `pulse-mcp` executable: runs src/cli/main.ts (kept separate so importing it runs nothing).
const main_1 = require("./cli/main");
void (0, main_1.main)(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
});
