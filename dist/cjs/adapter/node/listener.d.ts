/**
 * The Node request listener both Node bindings serve through (the `/node` adapter and the static
 * binding's `nodeListener()`). Node's own HTTP parser handles the head; the core counts and judges
 * the body as it streams. Node's modules are handed in, never imported here, so `/pulse` stays
 * loadable on runtimes without them.
 */
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type HostCore } from '../../core/driver';
import type { McpClientInfo, ResolvedOptions } from '../../options';
/** The Node modules a listener uses. */
export interface NodeModules {
    readonly http: typeof NodeHttp;
    readonly https: typeof NodeHttps;
}
/**
 * Node's modules as a listener takes them: `http` as given, and `node:https` (which brings TLS with
 * it) loaded by `loadHttps` on the first https effect rather than at start-up, then kept.
 */
export declare function nodeModules(http: typeof NodeHttp, loadHttps: () => typeof NodeHttps): NodeModules;
/**
 * An `http.createServer` request listener. `clientError` answers what Node's own HTTP parser refuses
 * (an interrupted body, malformed framing, an oversized head) with the core's fixed replies; the
 * listener attaches it to its server on the first request, and a server that may see such a fault
 * before any request should attach it itself: `server.on('clientError', handler.clientError)`.
 */
export interface McpNodeHandler {
    /**
     * Serves one request. The client's address is the TCP peer's, unless `info.clientAddress` says
     * otherwise: behind a proxy, the address your proxy vouches for (see `rateLimit`).
     */
    (req: IncomingMessage, res: ServerResponse, info?: McpClientInfo): void;
    readonly clientError: (err: Error & {
        code?: string;
    }, socket: Duplex) => void;
}
/** The request listener of a snapshotted configuration; throws `PulseConfigError`. */
export declare function createNodeListener(resolved: ResolvedOptions, node: NodeModules): McpNodeHandler;
/** The request listener over a built host core (its engine may serve other bindings too). */
export declare function nodeListener(host: HostCore, node: NodeModules): McpNodeHandler;
