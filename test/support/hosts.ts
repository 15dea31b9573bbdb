// The two hosts under test, imported from the TypeScript sources (vitest compiles them). One place,
// so every suite exercises the same entry points the package exports.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHttpHandler } from '../../src/index';
import { createMcpNodeHandler } from '../../src/node';
import { mcp, type McpBindingOptions } from '../../src/pulse';

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
  return listen(createMcpNodeHandler(options as any));
}

/** The static binding's Node listener, `http.createServer(mcp(options).nodeListener())`, on 127.0.0.1. */
export async function startStatic(options: McpBindingOptions): Promise<RunningServer> {
  return listen(mcp(options).nodeListener());
}

/** The static binding's Fetch form, `mcp(options).handle({ request })`, as a `fetch` handler. */
export function staticFetch(options: McpBindingOptions): FetchHandler {
  const server = mcp(options);
  return { fetch: (request: Request) => server.handle({ request }) };
}

/** A request listener on 127.0.0.1, an ephemeral port. */
export async function listen(listener: http.RequestListener): Promise<RunningServer> {
  const server = http.createServer(listener);
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
