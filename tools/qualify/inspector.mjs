// Driver for MCP Inspector 2.12.0 in CLI mode at the 2026-07-28 era. Its bin
// is a launcher; the CLI proper is reached through the launcher's --cli flag.
import path from 'node:path';
import { run } from './lib.mjs';

export function launcher(qualifyDir) {
  return path.join(qualifyDir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
}

/** Runs one inspector CLI method; returns the parsed JSON it printed, or throws with its error line. */
export async function cli({ qualifyDir, home, url, method, extra = [] }) {
  const env = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', NO_COLOR: '1' };
  const args = [launcher(qualifyDir), '--cli', url, '--method', method, '--protocol-era', 'modern', '--format', 'json', '-q', ...extra];
  const r = await run(process.execPath, args, { env, cwd: home, timeoutMs: 30_000 });
  let parsed = null;
  try { parsed = JSON.parse(r.stdout); } catch { /* not JSON */ }
  if (r.code !== 0 || !parsed) {
    let err = null;
    try { err = JSON.parse(r.stderr)?.error?.message; } catch { err = r.stderr.split(/\r?\n/).find((l) => l.trim()); }
    throw new Error(`inspector ${method} exit ${r.code}${r.timedOut ? ' (timed out)' : ''}: ${String(err ?? 'no output').replace(/\s+/g, ' ').slice(0, 300)}`);
  }
  return { result: parsed, ms: r.ms };
}
