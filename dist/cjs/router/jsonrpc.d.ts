import { type McpCoreSource } from '../options';
import { type EntityRouter } from './router';
import type { ContextOptions } from '../handlers/context';
export interface JsonRpcOptions extends ContextOptions {
    /** Exact endpoint path; default `/`. */
    readonly path?: string;
    readonly limits?: {
        readonly requestBytes?: number;
        readonly responseBytes?: number;
        readonly depth?: number;
        readonly deadlineMs?: number;
    };
    /** Where the core comes from, as for the hosts (a `WebAssembly.Module` on workerd). */
    readonly core?: McpCoreSource;
}
export interface JsonRpcBinding {
    fetch(request: Request): Promise<Response>;
}
/** Freezes and compiles `router` and binds it to the core's JSON-RPC profile. */
export declare function jsonRpc(router: EntityRouter, options?: JsonRpcOptions): JsonRpcBinding;
