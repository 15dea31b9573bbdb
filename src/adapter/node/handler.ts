/**
 * The `/node` adapter: an `http.createServer` request listener in front of catalog artifacts (the
 * host facade). It projects the catalog and runs no application code.
 */
import { resolveOptions, type McpHttpOptions } from '../../options';
import { builtinNodeModules, createNodeListener, type McpNodeHandler } from './listener';

export type { McpNodeHandler } from './listener';

export function createMcpNodeHandler(options?: McpHttpOptions): McpNodeHandler {
  return createNodeListener(resolveOptions(options), builtinNodeModules('createMcpNodeHandler', 'use createMcpHttpHandler'));
}
