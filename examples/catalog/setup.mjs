// What the examples built on the notes router share: its artifacts compiled with `pulse-mcp compile`
// into a directory of their own (so two runs never read each other's half-written files, removed at
// exit), and a child's stdout passed through line by line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** The directory holding entities-catalog.json and schema-json-registry.json; exits 1 on failure. */
export function compileArtifacts(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const compile = spawnSync(process.execPath, [here('../../dist/cjs/cli.js'), 'compile', here('./router.mjs'), '--out', dir], { encoding: 'utf8' });
  if (compile.status !== 0) {
    process.stderr.write(compile.stderr);
    process.exit(1);
  }
  return dir;
}

/** Writes each stdout line of `child` to ours and hands it to `onLine`. */
export function forwardLines(child, onLine) {
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      process.stdout.write(`${line}\n`);
      onLine?.(line);
    }
  });
}

/** The URL in the backend's `backend listening on …` line, or undefined. */
export const backendUrlIn = (line) => /^backend listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line)?.[1];
