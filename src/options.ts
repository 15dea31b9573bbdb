/**
 * Handler options: validated at construction (messages name the option, never echo values),
 * snapshotted, and turned into the core's configuration JSON (docs/contracts.md §4). The core
 * validates the configuration again and fails closed.
 */
import { PulseConfigError } from './errors';
import { DEFAULT_LIMITS, RESPONSE_HEADROOM_BYTES, type McpLimits } from './limits';
import { DEFAULT_SERVER_INFO, LEGACY_PROTOCOL_VERSION } from './protocol';

/** Context handed to a JavaScript handler hook for one `handler` instruction. */
export interface McpHandlerContext {
  /** Milliseconds the handler may take; the host stops waiting after that. */
  readonly timeoutMs: number;
  /** Aborted when the host stops waiting (timeout, client gone); absent where AbortController is. */
  readonly signal?: AbortSignal;
}

/** What one JavaScript handler run produced; `{ ok: false }` for every failure (thrown, timed out). */
export type McpHandlerOutcome = { readonly ok: true; readonly output: unknown } | { readonly ok: false };

/**
 * Runs the JavaScript handler of operation `op` with its decoded input (the router's handler
 * runner has this shape). Throwing or rejecting counts as `{ ok: false }`.
 */
export interface McpHandlerRunner {
  run(op: string, input: unknown, context: McpHandlerContext): McpHandlerOutcome | Promise<McpHandlerOutcome>;
}

/**
 * The tools seam: a compiled manifest (docs/contracts.md §6) plus the hook for `javascript`
 * handlers. Produced by the router/compiler; this layer treats the manifest as opaque JSON.
 */
export interface McpToolSource {
  readonly manifest: unknown;
  /** Runs `javascript` handlers; absent when every tool is native. */
  readonly handlers?: McpHandlerRunner;
  /** The same hook as a function (docs/contracts.md §8); used when `handlers` is absent. */
  readonly runHandler?: McpHandlerRunner['run'];
}

/** Alias kept for the public surface named in the seed. */
export type McpToolsOptions = McpToolSource;

/**
 * Reserved for the OAuth 2.1 resource-server profile (RFC 8414 metadata, RFC 7662 introspection),
 * which arrives with the authorization issue. Not accepted by this release: passing
 * `authorization` fails configuration rather than serving unauthenticated.
 */
export interface McpAuthorizationOptions {
  readonly resource: string;
  readonly issuer: string;
  readonly introspectionEndpoint: string;
  readonly scopes: readonly string[];
}

/**
 * A precompiled `WebAssembly.Module` of `@pulse-compute/mcp/pulse_core.wasm` (required on workerd,
 * which refuses to compile bytes at run time) or that file's bytes. Typed as `object` so consumers
 * need no WebAssembly type declarations.
 */
export type McpCoreSource = object;

export interface McpHttpOptions {
  /** Exact endpoint path; default `/mcp`. */
  readonly path?: string;
  /** Exact HTTP(S) origins admitted when an `Origin` header is present; default none. */
  readonly allowedOrigins?: readonly string[];
  /** Reported in every result's `_meta`; bounded strings, copied at construction. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Lower any of the default ceilings (`DEFAULT_LIMITS`). */
  readonly limits?: Partial<McpLimits>;
  /** Also serve the stateless 2025-06-18 Streamable HTTP profile. */
  readonly legacyProtocol?: '2025-06-18';
  readonly tools?: McpToolSource;
  /** Where the core comes from; default: the embedded wasm, or its wasm2js form without WebAssembly. */
  readonly core?: McpCoreSource;
}

/** The validated snapshot a handler is built from. */
export interface ResolvedOptions {
  readonly configJson: string;
  /** The admitted request body size, for host-side bounds such as the Node linger drain. */
  readonly requestBytes: number;
  readonly handlers: McpHandlerRunner | undefined;
  readonly core: McpCoreSource | undefined;
}

const OPTION_KEYS = new Set(['path', 'allowedOrigins', 'serverInfo', 'limits', 'legacyProtocol', 'tools', 'core']);
const LIMIT_KEYS = ['requestBytes', 'responseBytes', 'depth', 'deadlineMs'] as const;
const MAX_PATH = 256;
const MAX_ORIGINS = 64;
const MAX_INFO = 128;

function fail(message: string): never {
  throw new PulseConfigError(message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function printable(s: string, min: number, max: number, asciiOnly: boolean): boolean {
  if (s.length < min || s.length > max) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (asciiOnly && c > 0x7e) || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

function resolvePath(value: unknown): string {
  if (value === undefined) return '/mcp';
  const ok =
    typeof value === 'string' &&
    value.startsWith('/') &&
    printable(value, 1, MAX_PATH, true) &&
    !/[?# ]/.test(value);
  if (!ok) fail(`path must start with '/' and be at most ${MAX_PATH} printable ASCII characters without '?', '#' or spaces`);
  return value;
}

function resolveOrigins(value: unknown): string[] {
  if (value === undefined) return [];
  const message = `allowedOrigins must be an array of at most ${MAX_ORIGINS} exact origins such as 'https://app.example'`;
  if (!Array.isArray(value) || value.length > MAX_ORIGINS) fail(message);
  return value.map((origin: unknown) => {
    if (typeof origin !== 'string' || !printable(origin, 1, MAX_PATH, true)) fail(message);
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return fail(message);
    }
    // Exact comparison against the header needs the canonical form: lowercase, no default port, no path.
    if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) fail(message);
    return origin;
  });
}

function resolveServerInfo(value: unknown): { name: string; version: string } {
  if (value === undefined) return { ...DEFAULT_SERVER_INFO };
  if (!isRecord(value) || Object.keys(value).some((k) => k !== 'name' && k !== 'version')) {
    fail('serverInfo must be an object with exactly the keys name and version');
  }
  const { name, version } = value;
  if (typeof name !== 'string' || !printable(name, 1, MAX_INFO, false)) {
    fail(`serverInfo.name must be a string of 1 to ${MAX_INFO} printable characters`);
  }
  if (typeof version !== 'string' || !printable(version, 1, MAX_INFO, false)) {
    fail(`serverInfo.version must be a string of 1 to ${MAX_INFO} printable characters`);
  }
  return { name, version };
}

function resolveLimits(value: unknown): Required<McpLimits> {
  const out: Record<keyof McpLimits, number> = { ...DEFAULT_LIMITS, toolResultBytes: DEFAULT_LIMITS.responseBytes };
  if (value === undefined) return out;
  if (!isRecord(value)) fail('limits must be an object');
  for (const key of Object.keys(value)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key) && key !== 'toolResultBytes') {
      fail('limits has an unknown key; allowed: requestBytes, responseBytes, depth, deadlineMs, toolResultBytes');
    }
  }
  for (const key of LIMIT_KEYS) {
    const v = value[key];
    if (v === undefined) continue;
    const max = DEFAULT_LIMITS[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
      fail(`limits.${key} must be an integer from 1 to ${max}`);
    }
    out[key] = v;
  }
  if (out.responseBytes < out.requestBytes + RESPONSE_HEADROOM_BYTES) {
    fail(`limits.responseBytes must exceed limits.requestBytes by at least ${RESPONSE_HEADROOM_BYTES} bytes`);
  }
  const tool = value.toolResultBytes;
  if (tool === undefined) out.toolResultBytes = out.responseBytes;
  else if (typeof tool !== 'number' || !Number.isInteger(tool) || tool < 1 || tool > out.responseBytes) {
    fail('limits.toolResultBytes must be an integer from 1 to limits.responseBytes');
  } else out.toolResultBytes = tool;
  return out;
}

function resolveTools(value: unknown): { manifestJson: string; handlers: McpHandlerRunner | undefined } | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !('manifest' in value)) fail('tools must be an object with a manifest');
  let manifestJson: string | undefined;
  try {
    manifestJson = JSON.stringify(value.manifest);
  } catch {
    fail('tools.manifest must be JSON-serializable');
  }
  if (typeof manifestJson !== 'string' || !isRecord(value.manifest)) fail('tools.manifest must be a JSON object');
  const { handlers, runHandler } = value;
  if (handlers !== undefined && (!isRecord(handlers) || typeof handlers.run !== 'function')) {
    fail('tools.handlers must be an object with a run method');
  }
  if (runHandler !== undefined && typeof runHandler !== 'function') fail('tools.runHandler must be a function');
  if (handlers !== undefined) return { manifestJson, handlers: handlers as unknown as McpHandlerRunner };
  const run = runHandler as McpHandlerRunner['run'] | undefined;
  return { manifestJson, handlers: run === undefined ? undefined : { run: (op, input, context) => run(op, input, context) } };
}

function resolveCore(value: unknown): McpCoreSource | undefined {
  if (value === undefined) return undefined;
  const wa = (globalThis as { WebAssembly?: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
  const ok =
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    (wa !== undefined && value instanceof wa.Module);
  if (!ok) fail('core must be a WebAssembly.Module of pulse_core.wasm or its bytes');
  // Bytes are copied so later mutation by the caller cannot change the handler.
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
  return value;
}

/** Validates and snapshots `options`; throws `PulseConfigError` naming the first bad option. */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (options === undefined) options = {};
  if (!isRecord(options)) fail('options must be an object');
  for (const key of Object.keys(options)) {
    if (key === 'authorization') fail('authorization is not supported by this release');
    if (!OPTION_KEYS.has(key)) fail('options has an unknown key; allowed: path, allowedOrigins, serverInfo, limits, legacyProtocol, tools, core');
  }
  const path = resolvePath(options.path);
  const allowedOrigins = resolveOrigins(options.allowedOrigins);
  const serverInfo = resolveServerInfo(options.serverInfo);
  const limits = resolveLimits(options.limits);
  const legacy = options.legacyProtocol;
  if (legacy !== undefined && legacy !== LEGACY_PROTOCOL_VERSION) {
    fail(`legacyProtocol must be '${LEGACY_PROTOCOL_VERSION}' or omitted`);
  }
  const tools = resolveTools(options.tools);
  const core = resolveCore(options.core);
  const configJson =
    '{"path":' + JSON.stringify(path) +
    ',"allowedOrigins":' + JSON.stringify(allowedOrigins) +
    ',"serverInfo":' + JSON.stringify(serverInfo) +
    ',"limits":' + JSON.stringify(limits) +
    ',"legacyProtocol":' + (legacy === undefined ? 'null' : JSON.stringify(legacy)) +
    ',"tools":' + (tools === undefined ? 'null' : tools.manifestJson) +
    '}';
  return Object.freeze({ configJson, requestBytes: limits.requestBytes, handlers: tools?.handlers, core });
}
