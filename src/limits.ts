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

export const DEFAULT_LIMITS: Readonly<McpLimits> = Object.freeze({
  requestBytes: 65536,
  responseBytes: 1048576,
  depth: 32,
  deadlineMs: 10000,
});

/** Bytes the response budget must keep above the request budget. */
export const RESPONSE_HEADROOM_BYTES = 512;
