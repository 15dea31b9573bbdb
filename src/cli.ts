#!/usr/bin/env node
// The `pulse-mcp` executable: runs src/compiler/cli.ts (kept separate so importing it runs nothing).
import { main } from './compiler/cli';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
