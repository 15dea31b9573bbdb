import { createServer, type AddressInfo } from 'node:net';

/** A loopback port free at the time of asking, for a server that cannot listen on port 0 (Viceroy). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => ok(p));
    });
  });
}
