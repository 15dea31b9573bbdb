/** Per-request ceilings. Options may only lower them. */
export interface McpLimits {
    /** Request body bytes, counted as they stream (Content-Length is never trusted). */
    readonly requestBytes: number;
    /** Bytes of any response body; must exceed `requestBytes` by at least 512 (room for echoed ids). */
    readonly responseBytes: number;
    /** JSON nesting levels. */
    readonly depth: number;
    /** End-to-end deadline of one request, milliseconds. */
    readonly deadlineMs: number;
    /** Bytes of one whole tool result; at most `responseBytes`, which is also its default. */
    readonly toolResultBytes?: number;
}
export { DEFAULT_LIMITS, RESPONSE_HEADROOM_BYTES } from './core/generated/defaults';
