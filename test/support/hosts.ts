// The two hosts under test, imported from the TypeScript sources (vitest compiles them). One place,
// so every suite exercises the same entry points the package exports.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHttpHandler } from '../../src/index';
import { createMcpNodeHandler } from '../../src/node';

export { createMcpHttpHandler, createMcpNodeHandler };

export type FetchHandler = { fetch(req: Request): Promise<Response> };

export interface RunningServer {
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** `http.createServer(createMcpNodeHandler(options))` on 127.0.0.1, an ephemeral port. */
export async function startNode(options?: unknown): Promise<RunningServer> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const server = http.createServer(createMcpNodeHandler(options as any));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export function fetchHandler(options?: unknown): FetchHandler {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return createMcpHttpHandler(options as any);
}
