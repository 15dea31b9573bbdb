/**
 * The request event's channel: one `node:diagnostics_channel` message per finished request, the way
 * undici publishes. The module is reached through `process.getBuiltinModule`, so the `.` and
 * `/pulse` entries still load on Fetch runtimes without Node (nothing is published there), and a
 * channel without subscribers costs one property read per request.
 */

/** The channel every host publishes its request events on. */
export const REQUEST_CHANNEL = 'pulse-mcp:request';

/**
 * One finished request. The core decides every field but the timings and the target; it never
 * carries tokens, secrets, header values, argument or result values.
 */
export interface McpRequestEvent {
  /** The JSON-RPC method; `null` when the body had none (refused before, or not JSON-RPC). */
  readonly method: string | null;
  /** The JSON-RPC `id` as text (a string's value, a number as written); `null` for a notification or a null id. */
  readonly requestId: string | null;
  /** The tool or prompt name, or the resource URI; `null` for other methods. */
  readonly name: string | null;
  /** The HTTP status sent. */
  readonly status: number;
  /** The JSON-RPC error code, `null` without an error object. */
  readonly code: number | null;
  /** `tools/call` results: the result's `isError`; `null` otherwise. */
  readonly isError: boolean | null;
  /** Which refusal it was (stable snake_case kind, e.g. `name_missing`, `not_acceptable`); `null` when served. */
  readonly refusal: string | null;
  /** Request body bytes received. */
  readonly bytesIn: number;
  /** Bytes of the reply body (the last event of a streamed reply). */
  readonly bytesOut: number;
  /** The protocol revision the request named (`_meta` or the `MCP-Protocol-Version` header). */
  readonly protocolVersion: string | null;
  /** The authorized principal's `sub` (with `authorization`). */
  readonly sub: string | null;
  /** W3C trace context from `params._meta`, only when `traceparent` is well-formed. */
  readonly traceparent: string | null;
  readonly tracestate: string | null;
  /** Milliseconds waiting for the request body. */
  readonly bodyMs: number;
  /** Milliseconds performing effects (handlers, HTTP exchanges), answers included. */
  readonly effectsMs: number;
  /** Milliseconds in the core and the driver: the rest of `totalMs`. */
  readonly coreMs: number;
  /** Milliseconds from the head to the reply. */
  readonly totalMs: number;
  /** The runtime serving (`node-javascript`, `workerd-javascript`, `fastly-javascript`, …). */
  readonly target: string;
}

/** The event's fields the core decides; the host adds its timings and target. */
export type CoreEvent = Omit<McpRequestEvent, 'bodyMs' | 'effectsMs' | 'coreMs' | 'totalMs' | 'target'>;

interface Channel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
  subscribe(onMessage: (message: unknown, name: string | symbol) => void): void;
  unsubscribe(onMessage: (message: unknown, name: string | symbol) => void): boolean;
}

interface Process {
  getBuiltinModule?(id: string): unknown;
  versions?: { node?: string; bun?: string; deno?: string };
}

const proc = (globalThis as { process?: Process }).process;

function open(): Channel | undefined {
  try {
    const dc = proc?.getBuiltinModule?.('node:diagnostics_channel') as { channel(name: string): Channel } | undefined;
    return dc?.channel(REQUEST_CHANNEL);
  } catch {
    return undefined;
  }
}

/** `undefined` where the runtime has no `diagnostics_channel`. */
export const requestChannel: Channel | undefined = open();

/** The runtime, named like the compiler's targets. */
function detectTarget(): string {
  const g = globalThis as { navigator?: { userAgent?: string }; fastly?: unknown };
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd-javascript';
  if (typeof g.fastly === 'object' && g.fastly !== null) return 'fastly-javascript';
  if (typeof proc?.versions?.bun === 'string') return 'bun-javascript';
  if (typeof proc?.versions?.deno === 'string') return 'deno-javascript';
  if (typeof proc?.versions?.node === 'string') return 'node-javascript';
  return 'javascript';
}

let target: string | undefined;

/** What the driver measured, beside the core's event. */
export interface Timings {
  readonly bodyMs: number;
  readonly effectsMs: number;
  readonly totalMs: number;
}

/** A request the host's own parser refused: nothing was measured. */
export const NO_TIMINGS: Timings = Object.freeze({ bodyMs: 0, effectsMs: 0, totalMs: 0 });

/** The core's part when it has none (its instance broke): the host's own 500. */
const INTERNAL: CoreEvent = Object.freeze({
  method: null,
  requestId: null,
  name: null,
  status: 500,
  code: -32603,
  isError: null,
  refusal: 'internal',
  bytesIn: 0,
  bytesOut: 0,
  protocolVersion: null,
  sub: null,
  traceparent: null,
  tracestate: null,
});

/** Publishes one request's event: the core's fields completed with the host's timings and target. */
export function publishRequest(channel: Channel, core: CoreEvent | undefined, t: Timings): void {
  const c = core ?? INTERNAL;
  // One literal, every member in the documented order: every event has the same shape.
  const event: McpRequestEvent = {
    method: c.method,
    requestId: c.requestId,
    name: c.name,
    status: c.status,
    code: c.code,
    isError: c.isError,
    refusal: c.refusal,
    bytesIn: c.bytesIn,
    bytesOut: c.bytesOut,
    protocolVersion: c.protocolVersion,
    sub: c.sub,
    traceparent: c.traceparent,
    tracestate: c.tracestate,
    bodyMs: t.bodyMs,
    effectsMs: t.effectsMs,
    coreMs: Math.max(0, t.totalMs - t.bodyMs - t.effectsMs),
    totalMs: t.totalMs,
    target: (target ??= detectTarget()),
  };
  channel.publish(Object.freeze(event));
}
