// `npm run example:catalog`: builds the artifacts with `pulse-mcp compile` (into a directory of its
// own, so two runs never read each other's half-written files), starts the governed backend on a
// free loopback port with a fresh service token, then the MCP host in front of it on HOST/PORT
// (default 127.0.0.1:3000). Its last start-up line is the host's `… listening on …/mcp`. Stops both
// on SIGINT/SIGTERM, or when either exits, and removes the artifacts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const artifacts = mkdtempSync(join(tmpdir(), 'pulse-catalog-'));
process.on('exit', () => rmSync(artifacts, { recursive: true, force: true }));
const compile = spawnSync(process.execPath, [here('../../dist/cjs/cli.js'), 'compile', here('./router.mjs'), '--out', artifacts], { encoding: 'utf8' });
if (compile.status !== 0) {
  process.stderr.write(compile.stderr);
  process.exit(1);
}

const token = randomBytes(24).toString('base64url');
const children = [];
const stopAll = (code) => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
};
function start(file, env, ready) {
  const child = spawn(process.execPath, [here(file)], { env: { ...process.env, BACKEND_TOKEN: token, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      process.stdout.write(`${line}\n`);
      ready?.(line);
    }
  });
  child.once('exit', (code) => stopAll(code ?? 1));
  return child;
}

start('./backend.mjs', { BACKEND_PORT: '0' }, (line) => {
  const m = /^backend listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line);
  if (m) start('./server.mjs', { BACKEND_URL: m[1], ARTIFACTS: artifacts });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll(0));
