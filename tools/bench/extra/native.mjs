// Core work per request measured natively (no host, no wasm): head, one 32 KiB body chunk, end and
// the reply of a validated tools/call (native/core/examples/body32k.rs, release build).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export async function rows({ root }) {
  const r = spawnSync('cargo', ['run', '--release', '--quiet', '-p', 'pulse-core', '--example', 'body32k'], { cwd: join(root, 'native'), encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`bench: body32k failed: ${(r.stderr || '').slice(-400)}`);
  const { bodyBytes, medianUsPerRequest } = JSON.parse(r.stdout.trim().split('\n').at(-1));
  return [{ group: `core per request, ${bodyBytes}-byte body (native)`, name: 'head + body + end + reply', value: medianUsPerRequest, unit: 'µs' }];
}
