// Waiting for a local server, shared by the scripts that start one and the tooling.
import net from 'node:net';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits (bounded) until something accepts TCP connections on 127.0.0.1:port; fails early once
 * `exited` (the server process's exit) settles.
 */
export async function waitForPort(port, timeoutMs, exited) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited?.then(() => { gone = true; });
  while (Date.now() < deadline) {
    if (gone) throw new Error('server exited before listening');
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.setTimeout(500);
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
      s.once('timeout', () => { s.destroy(); resolve(false); });
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}
