/**
 * The `/node` adapter: an `http.createServer` request listener in front of catalog artifacts (the
 * host facade). It projects the catalog and runs no application code.
 */
import http from 'node:http';
import { resolveOptions, type McpHttpOptions } from '../../options';
import { createNodeListener, nodeModules, type McpNodeHandler } from './listener';

export type { McpNodeHandler } from './listener';

export function createMcpNodeHandler(options?: McpHttpOptions): McpNodeHandler {
  return createNodeListener(resolveOptions(options), nodeModules(http, () => process.getBuiltinModule('node:https')));
}
