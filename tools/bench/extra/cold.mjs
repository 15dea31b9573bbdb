// Cold start: load the library + build a handler + the first tools/call reply, in a fresh process
// each time (median of 7), the Pulse package beside the official SDK server.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const RUNS = 7;

function median(which, root) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, [join(root, 'tools', 'bench', 'cold-start.mjs'), which], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`cold start (${which}) failed: ${r.stderr.trim().split('\n').slice(-2).join(' ')}`);
    times.push(Number(r.stdout.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function rows({ root }) {
  const group = 'cold start: load + construct + first tools/call';
  const sdk = 'official SDK server (@modelcontextprotocol/server)';
  return [
    { group, name: sdk, value: median('sdk', root), unit: 'ms' },
    { group, name: 'Pulse (Fetch handler, JavaScript tool)', value: median('pulse', root), unit: 'ms', baseline: sdk },
  ];
}
