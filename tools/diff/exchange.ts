/**
 * One request of the differential run over its own TCP connection, done at the complete response
 * (workerd keeps the socket open). `localAddress` picks the client's address: every 127.0.0.0/8
 * address is loopback on Linux, so a target sees that address as its TCP peer.
 */
import net from 'node:net';
import { encodeRequest, parseResponse, type RawRequest, type RawResponse } from '../../test/support/raw-http';

export function exchange(port: number, req: RawRequest, timeoutMs: number, stallAfterBytes?: number, localAddress?: string): Promise<RawResponse | null> {
  const bytes = encodeRequest(req);
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port, ...(localAddress === undefined ? {} : { localAddress }) });
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (r: RawResponse | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const tryParse = (ended: boolean) => {
      try {
        return parseResponse(buf, ended, req.method);
      } catch {
        return null;
      }
    };
    const timer = setTimeout(() => finish(tryParse(true)), timeoutMs);
    sock.on('connect', () => sock.write(stallAfterBytes === undefined ? bytes : bytes.subarray(0, stallAfterBytes)));
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const r = tryParse(false);
      if (r) finish(r);
    });
    // Writes may fail once the server answered early; what was read still counts.
    sock.on('error', () => undefined);
    sock.on('close', () => finish(tryParse(true)));
  });
}
