#!/usr/bin/env node
// The `pulse-mcp` executable: runs src/cli/main.ts (kept separate so importing it runs nothing).
import { main } from './cli/main';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
