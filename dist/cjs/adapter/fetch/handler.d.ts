import { type HostCore } from '../../core/driver';
import { type McpClientInfo, type McpHttpOptions } from '../../options';
export interface McpHttpHandler {
    /**
     * Serves one request. `info.clientAddress` is the client's IP address where the runtime knows it
     * (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP(request)?.address`, Cloudflare's
     * `CF-Connecting-IP`): the key of `rateLimit`'s budgets per address. Pass only what the platform
     * vouches for, never a header a client can set.
     */
    fetch(request: Request, info?: McpClientInfo): Promise<Response>;
}
/** The root adapter: a Fetch handler in front of catalog artifacts (the host facade). */
export declare function createMcpHttpHandler(options?: McpHttpOptions): McpHttpHandler;
/**
 * One Fetch request through `host` (shared by every Fetch-facing binding: the root adapter, `mcp()`,
 * `jsonRpc`). A reply the core streams (progress of a static binding's handler, where switched on)
 * is returned as soon as its first event exists; the driver keeps writing into it and closes it with
 * the final response.
 */
export declare function serveFetch(host: HostCore, request: Request, client?: string): Promise<Response>;
