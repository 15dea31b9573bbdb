// `npm run example:catalog`: builds the artifacts with `pulse-mcp compile` (into a directory of its
// own, so two runs never read each other's half-written files), starts the governed backend on a
// free loopback port with a fresh service token, then the MCP host in front of it on HOST/PORT
// (default 127.0.0.1:3000). Its last start-up line is the host's `… listening on …/mcp`. Stops both
// on SIGINT/SIGTERM, or when either exits, and removes the artifacts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { backendUrlIn, compileArtifacts, forwardLines } from './setup.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const artifacts = compileArtifacts('pulse-catalog-');

const token = randomBytes(24).toString('base64url');
const children = [];
const stopAll = (code) => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exitCode = code;
};
function start(file, env, ready) {
  const child = spawn(process.execPath, [here(file)], { env: { ...process.env, BACKEND_TOKEN: token, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  forwardLines(child, ready);
  child.once('exit', (code) => stopAll(code ?? 1));
  return child;
}

start('./backend.mjs', { BACKEND_PORT: '0' }, (line) => {
  const url = backendUrlIn(line);
  if (url) start('./server.mjs', { BACKEND_URL: url, ARTIFACTS: artifacts });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll(0));
