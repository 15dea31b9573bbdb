// The request event's overhead on the static tool, in process (tools/bench/drive-loop.mjs, no
// sockets): the same dist with the diagnostics channel absent (what a runtime without
// node:diagnostics_channel runs: nothing measured, nothing built), with the channel and nothing
// subscribed, with a no-op subscriber (the event is built and published), and with the OpenTelemetry
// subscriber over the API's no-op tracer. Targets: ≤ 3 % nothing subscribed, ≤ 10 % subscribed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const GROUP = 'request telemetry, tools/call static tool (drive in process)';
const ABSENT = 'channel absent (no telemetry)';

/** dist/cjs with the channel never opened: the driver's one `hasSubscribers` read short-circuits. */
function distWithoutChannel(root) {
  // Inside the package, so the copy still resolves the package's own pulse_core.wasm.
  const dir = mkdtempSync(join(root, '.bench-telemetry-'));
  cpSync(join(root, 'dist', 'cjs'), dir, { recursive: true });
  const file = join(dir, 'telemetry', 'channel.js');
  const text = readFileSync(file, 'utf8');
  const patched = text.replace('exports.requestChannel = open();', 'exports.requestChannel = undefined;');
  if (patched === text) throw new Error('bench: telemetry: dist/cjs/telemetry/channel.js no longer opens its channel as expected');
  writeFileSync(file, patched);
  return dir;
}

const preload = (code) => `--import=data:text/javascript,${encodeURIComponent(code)}`;

export async function rows({ root, rounds = 1 }) {
  const loop = join(root, 'tools', 'bench', 'drive-loop.mjs');
  const otel = pathToFileURL(join(root, 'dist', 'esm', 'otel.mjs')).href;
  const absent = distWithoutChannel(root);
  const once = (name, args, env = {}) => {
    const r = spawnSync(process.execPath, [...args, loop, 'static'], { cwd: root, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...env } });
    if (r.status !== 0) throw new Error(`bench: telemetry ${name} failed: ${(r.stderr || '').slice(-400)}`);
    return JSON.parse(r.stdout.trim().split('\n').at(-1)).medianUsPerRequest;
  };
  const cases = [
    [ABSENT, [], { PULSE_DIST: absent }],
    ['nothing subscribed', []],
    ['no-op subscriber', [preload('import dc from "node:diagnostics_channel"; dc.subscribe("pulse-mcp:request", () => {});')]],
    ['OpenTelemetry instrument(), no-op tracer', [preload(`import { instrument } from ${JSON.stringify(otel)}; instrument();`)]],
  ];
  try {
    // Alternating rounds (every case, then every case again), each row its median round: a slow
    // minute of the shared machine touches every case alike.
    const samples = cases.map(() => []);
    for (let round = 0; round < rounds; round++) for (const [i, [name, args, env]] of cases.entries()) samples[i].push(once(name, args, env));
    return cases.map(([name], i) => {
      const sorted = [...samples[i]].sort((a, b) => a - b);
      return { group: GROUP, name, value: sorted[sorted.length >> 1], unit: 'µs', rounds: samples[i], ...(name === ABSENT ? {} : { baseline: ABSENT }) };
    });
  } finally {
    rmSync(absent, { recursive: true, force: true });
  }
}
