/** This package as the command line finds it: its root and version, from the built package and the checkout alike. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const PACKAGE_NAME = '@pulse-compute/mcp';

let found: { root: string; version: string } | undefined;

/** The nearest directory above this file whose package.json is this package's (dist/cjs/cli or src/cli below it). */
function own(): { root: string; version: string } {
  if (found !== undefined) return found;
  for (let dir = __dirname, i = 0; i < 5; dir = dirname(dir), i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return (found = { root: dir, version: pkg.version });
    } catch {
      // no package.json at this level
    }
  }
  throw new Error(`pulse-mcp: cannot find the ${PACKAGE_NAME} package this command belongs to`);
}

export function packageRoot(): string {
  return own().root;
}

export function packageVersion(): string {
  return own().version;
}
