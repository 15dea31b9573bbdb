// The Node host's per-request work in process, without sockets (tools/bench/drive-loop.mjs): the
// glue and the core alone, steadier than loopback req/s on a shared machine.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CASES = [
  ['discover', 'server/discover'],
  ['static', 'tools/call, static tool'],
  ['js', 'tools/call, JavaScript tool'],
];

export async function rows({ root }) {
  return CASES.map(([mode, name]) => {
    const r = spawnSync(process.execPath, [join(root, 'tools', 'bench', 'drive-loop.mjs'), mode], { cwd: root, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) throw new Error(`bench: drive-loop ${mode} failed: ${(r.stderr || '').slice(-400)}`);
    const { medianUsPerRequest } = JSON.parse(r.stdout.trim().split('\n').at(-1));
    return { group: 'host per request, in process (drive, no sockets)', name, value: medianUsPerRequest, unit: 'µs' };
  });
}
