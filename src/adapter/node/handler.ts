/**
 * The `/node` adapter: an `http.createServer` request listener in front of catalog artifacts (the
 * host facade). It projects the catalog and runs no application code.
 */
import http from 'node:http';
import type * as NodeHttps from 'node:https';
import { resolveOptions, type McpHttpOptions } from '../../options';
import { createNodeListener, type McpNodeHandler } from './listener';

export type { McpNodeHandler } from './listener';

export function createMcpNodeHandler(options?: McpHttpOptions): McpNodeHandler {
  let https: typeof NodeHttps | undefined;
  return createNodeListener(resolveOptions(options), {
    http,
    // Loaded on the first https effect, not at start-up (node:https brings TLS with it).
    get https() {
      return (https ??= process.getBuiltinModule('node:https'));
    },
  });
}
