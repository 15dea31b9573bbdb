/**
 * Handler options → the core's configuration JSON (docs/contracts.md#engine-configuration). The core judges every
 * plain-data option (path, allowedOrigins, serverInfo, limits, legacyProtocol, unknown keys) and is
 * the one authority: its message names the option and the entry, never the value, and reaches the
 * caller as `PulseConfigError` when the engine is built. This layer checks only what the core cannot
 * see: functions and objects (`tools`, `core`), and that the plain data is plain JSON at all.
 */
import { PulseConfigError } from './errors';
import { DEFAULT_LIMITS, type McpLimits } from './limits';
import { HOST_STORE_DEFAULTS } from './core/generated/defaults';
import { catalogManifest, type McpCatalogTools } from './catalog/artifacts';

export type { McpCatalogTools };

/** Context handed to a JavaScript handler hook for one `handler` instruction. */
export interface McpHandlerContext {
  /** Milliseconds the handler may take; the host stops waiting after that. */
  readonly timeoutMs: number;
  /** Aborted when the host stops waiting (timeout, client gone); absent where AbortController is. */
  readonly signal?: AbortSignal;
  /**
   * The client's answers to the tool's declared `inputs`, keyed as declared (elicitation, sampling
   * and roots results); present only for tools that declare inputs, once every round is answered.
   */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /**
   * Reports progress to a client that asked for it (`_meta.progressToken`), when the static binding
   * was made with `progress: true`: the reply becomes a bounded event stream. Absent otherwise.
   */
  readonly progress?: (progress: number, total?: number, message?: string) => void;
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
 * The static binding's tools (built by `mcp()` from a router, never by a caller): a compiled
 * manifest (docs/contracts.md#the-tools-pipeline) plus the runner of its `javascript` handlers.
 */
export interface McpToolSource {
  readonly manifest: unknown;
  /** Runs `javascript` handlers; absent when every tool is native. */
  readonly handlers?: McpHandlerRunner;
}

/**
 * `tools` of the host adapters: the emitted catalog artifacts of a backend served with
 * `jsonRpc(router)`, and its fixed endpoint. The adapters project them and run nothing themselves.
 */
export type McpToolsOptions = McpCatalogTools;

/**
 * OAuth 2.1 resource-server admission. Every MCP POST (discovery and notifications included) must
 * carry `Authorization: Bearer <token>`; before its body is parsed the token is verified by RFC 7662
 * introspection at `introspectionEndpoint` (client_secret_basic, 3 s ceiling, 16 KiB / 8 levels, no
 * redirect, no retry, nothing cached unless `cache` asks), and the claims must hold exactly: `active`, `iss` equal to
 * `issuer`, `aud` holding `resource`, a future integral `exp`, a nonempty `sub`, a space-separated
 * `scope`, a valid `nbf` and a `Bearer` `token_type` when present. RFC 9728 metadata is served at
 * `/.well-known/oauth-protected-resource` + the resource path. Tokens are never parsed locally.
 */
export interface McpAuthorizationOptions {
  /** This endpoint's canonical URL: https, its path the handler `path`; the tokens' audience. */
  readonly resource: string;
  /** The authorization server's issuer identifier, compared exactly with `iss`. */
  readonly issuer: string;
  /** RFC 7662 endpoint of the issuer (same origin). */
  readonly introspectionEndpoint: string;
  /** The resource server's own client at the issuer, allowed to introspect. */
  readonly clientId: string;
  /**
   * That client's secret. The Fastly Native build takes a secret-store reference instead,
   * `{ secretStore, key }`, read on every request, so it is never compiled into `main.wasm`.
   */
  readonly clientSecret: string | McpSecretRef;
  /** Baseline scopes every request needs (at least one). */
  readonly scopes: readonly string[];
  /**
   * Tool name → the scopes it needs beyond the baseline (`[]`: baseline access). A tool not
   * listed is never callable nor listed; a name that is no tool fails construction.
   */
  readonly operations?: Readonly<Record<string, readonly string[]>>;
  /** Admit `http://` to a literal loopback IP (127.0.0.0/8, [::1]; never a name such as localhost) for local tests. */
  readonly allowInsecureLoopback?: boolean;
  /** The Fastly backend that reaches the issuer (Native builds); default `issuer`. */
  readonly backend?: string;
  /** Keep introspection results for a while (off when absent); see `McpIntrospectionCacheOptions`. */
  readonly cache?: McpIntrospectionCacheOptions;
}

/**
 * The opt-in introspection cache. A token's introspection result is kept under a SHA-256 key (never
 * the token) for the smaller of `maxAgeMs` and the token's `exp`; an inactive or invalid result for
 * at most 5 s; a verifier failure never. `exp`, `nbf` and the scope policy are judged at every use.
 * The price: a token revoked at the issuer keeps working for up to `maxAgeMs`.
 */
export interface McpIntrospectionCacheOptions {
  /** How long an active token's result is kept, at most: an integer 1..60000 ms. */
  readonly maxAgeMs: number;
  /** Node and Fetch: entries kept per handler, least recently used evicted first; default 10000 (1..1000000). */
  readonly maxEntries?: number;
  /** Node and Fetch: bytes of keys and values kept per handler; default 8 MiB (65536..1 GiB). */
  readonly maxBytes?: number;
}

/**
 * One budget of the rate limits: at most `limit` requests over the last `window` seconds; one more
 * puts the caller in the penalty box for `penaltyMinutes`, refused 429 with `Retry-After` until then.
 */
export interface McpRateBudget {
  /** An integer 1..1000000. */
  readonly limit: number;
  /** Seconds counted back from now: 10, 20, 30, 40, 50 or 60 (Fastly's rate counter windows); default 60. */
  readonly window?: 10 | 20 | 30 | 40 | 50 | 60;
  /** Whole minutes in the penalty box, 1..60 (Fastly's penalty box); default 1. */
  readonly penaltyMinutes?: number;
}

/**
 * Opt-in rate limits (off when absent). The core decides what counts, under which key and the reply;
 * the host counts: Node and Fetch in a bounded in-process store per handler, the Fastly Native
 * service in Fastly's Edge Rate Limiting. A limited request gets 429 with `Retry-After` and the
 * JSON-RPC error -32023 carrying `retryAfterMs`; a notification gets 429 without a body.
 */
export interface McpRateLimitOptions {
  /**
   * Every request per client address, counted before authorization: a flood of unknown tokens is
   * refused before it costs an introspection. Needs the client's address from the host.
   */
  readonly requests?: McpRateBudget;
  /**
   * Every `tools/call` of a declared tool the caller may call, per caller: the authorized `sub`,
   * else the client address. `tools` gives a tool a budget of its own, counted apart.
   */
  readonly toolCalls?: McpRateBudget & { readonly tools?: Readonly<Record<string, McpRateBudget>> };
  /** Fastly Native: the Edge Rate Limiting rate counter that counts; default `pulse_mcp`. */
  readonly rateCounter?: string;
  /** Fastly Native: the penalty box; default `pulse_mcp`. */
  readonly penaltyBox?: string;
  /** Node and Fetch: entries kept per handler, least recently used evicted first; default 10000 (1..1000000). */
  readonly maxEntries?: number;
  /** Node and Fetch: bytes kept per handler; default 8 MiB (65536..1 GiB). */
  readonly maxBytes?: number;
}

/**
 * What a host is told of the client beside its request. `clientAddress` is the client's IP address
 * (the key of `rateLimit`'s budgets per address): pass only what the platform or your own proxy
 * vouches for, never a header any client can set.
 */
export interface McpClientInfo {
  readonly clientAddress?: string;
}

/**
 * A precompiled `WebAssembly.Module` of `@pulse-compute/mcp/pulse_core.wasm` (required on workerd,
 * which refuses to compile bytes at run time) or that file's bytes. Typed as `object` so consumers
 * need no WebAssembly type declarations.
 */
export type McpCoreSource = object;

/** An MCP content block, as declared in prompts and returned by content tools. */
export type McpContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
  | {
      readonly type: 'resource';
      readonly resource: { readonly uri: string; readonly mimeType?: string } & ({ readonly text: string } | { readonly blob: string });
    }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name: string; readonly title?: string; readonly description?: string; readonly mimeType?: string };

/** A static resource: text, or `blob` (padded base64). */
export interface McpResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/**
 * A resource template with RFC 6570 level-1 `{variable}`s, read statically: `text` with the
 * variables substituted. `completions` offers values per variable to `completion/complete`.
 */
export interface McpResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly text: string;
  readonly completions?: Readonly<Record<string, readonly string[]>>;
}

/** A prompt: fixed messages in which `{argument}` is replaced by the argument's value. */
export interface McpPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly required?: boolean;
    /** Values `completion/complete` offers for this argument, filtered by prefix. */
    readonly completions?: readonly string[];
  }[];
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: McpContentBlock }[];
  /** Rounds of client input required before the messages are returned (multi-round requests). */
  readonly inputs?: readonly Readonly<Record<string, { readonly method: string; readonly params?: unknown; readonly optional?: boolean }>>[];
}

export interface McpHttpOptions {
  /** Exact endpoint path; default `/mcp`. */
  readonly path?: string;
  /** Exact HTTP(S) origins admitted when an `Origin` header is present; default none. */
  readonly allowedOrigins?: readonly string[];
  /**
   * `true`: browser clients of the `allowedOrigins` (required with it) may call: their preflight is
   * answered and every reply to them carries `Access-Control-Allow-Origin`. Off by default.
   */
  readonly cors?: boolean;
  /** Reported in every result's `_meta`; bounded strings, copied at construction. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** Lower any of the default ceilings (`DEFAULT_LIMITS`). */
  readonly limits?: Partial<McpLimits>;
  /** Also serve the stateless 2025-06-18 Streamable HTTP profile. */
  readonly legacyProtocol?: '2025-06-18';
  readonly tools?: McpToolsOptions;
  /** Static resources: `resources/list`, `resources/read`. */
  readonly resources?: readonly McpResource[];
  /** Resource templates: `resources/templates/list`, and reads of matching URIs. */
  readonly resourceTemplates?: readonly McpResourceTemplate[];
  /** Prompts: `prompts/list`, `prompts/get`. */
  readonly prompts?: readonly McpPrompt[];
  /** Cache lifetime the list results and `resources/read` carry (`ttlMs`); default 300000, 0 to 86400000. */
  readonly listCacheTtlMs?: number;
  /** `private` (default) or `public`: whether shared caches may keep list results. */
  readonly listCacheScope?: 'private' | 'public';
  /**
   * Seals multi-round `requestState` (HMAC-SHA256, with expiry, bound to the method, name and
   * arguments): at least 32 bytes of secret text. Required by any tool or prompt with `inputs`.
   * The Fastly Native build takes a secret-store reference instead, `{ secretStore, key }`, read on
   * every request, so the key is never compiled into `main.wasm`.
   */
  readonly requestStateKey?: string | McpSecretRef;
  /**
   * `true` sends multi-round state unsealed when no key is given. The client can then read and
   * forge it: only for continuations that carry nothing a client must not choose.
   */
  readonly unsealedRequestState?: boolean;
  /**
   * Serve a server card at `/.well-known/mcp/server-card.json` (GET, `Cache-Control: public,
   * max-age=300`): name, version, protocol version, endpoint, capabilities and tools. Off by default.
   */
  readonly serverCard?: boolean;
  /** OAuth 2.1 resource-server admission; without it the endpoint is unauthenticated. */
  readonly authorization?: McpAuthorizationOptions;
  /**
   * The Fastly Native build writes each request event as one JSON line to the Fastly log endpoint
   * of this name (1 to 255 visible ASCII characters); off when absent. The Node and Fetch hosts
   * ignore it: they publish the event on `node:diagnostics_channel`.
   */
  readonly fastlyLogEndpoint?: string;
  /** Opt-in rate limits per client address and per caller; off when absent. */
  readonly rateLimit?: McpRateLimitOptions;
  /** Where the core comes from; default: the embedded wasm, or its wasm2js form without WebAssembly. */
  readonly core?: McpCoreSource;
}

/** The snapshot a handler is built from; the core has not judged `configJson` yet. */
export interface ResolvedOptions {
  readonly configJson: string;
  /** The admitted request body size, for host-side bounds such as the Node linger drain. */
  readonly requestBytes: number;
  readonly handlers: McpHandlerRunner | undefined;
  readonly core: McpCoreSource | undefined;
  /** The introspection store's bounds, with `authorization.cache` only. */
  readonly introspectionCache?: StoreBounds;
  /** The rate limits' store bounds, with `rateLimit` only. */
  readonly rateLimitStore?: StoreBounds;
}

/** A host store's `maxEntries` and `maxBytes`. */
export interface StoreBounds {
  readonly maxEntries: number;
  readonly maxBytes: number;
}

/** `maxEntries` and `maxBytes` of an option's object, read back from its snapshot; the core's defaults when absent. */
function storeBounds(o: Record<string, unknown>): StoreBounds {
  const n = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
  return { maxEntries: n(o.maxEntries, HOST_STORE_DEFAULTS.maxEntries), maxBytes: n(o.maxBytes, HOST_STORE_DEFAULTS.maxBytes) };
}

/** Configuration members the hosts set themselves (`jsonRpc`), never taken from user options. */
const INTERNAL = new Set(['profile']);
/** A key shown in a message: short printable ASCII only, like the core's rule. */
const SHOWN_KEY = /^[\x20-\x7e]{1,64}$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function fail(message: string): never {
  throw new PulseConfigError(message);
}

/** A plain object of any realm: prototype `Object.prototype`-like or `null`, never a class instance. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** `parent.key`, `parent["a b"]`, or `parent[an unnamed key]` for a key not fit to show. */
function member(parent: string, key: string): string {
  if (IDENTIFIER.test(key) && key.length <= 64) return parent === '' ? key : `${parent}.${key}`;
  const shown = SHOWN_KEY.test(key) ? JSON.stringify(key) : 'an unnamed key';
  return `${parent === '' ? 'options' : parent}[${shown}]`;
}

/**
 * The JSON text of a plain-data option, exactly as given (members whose value is `undefined` are
 * absent, as in JSON.stringify). Throws `PulseConfigError` naming the offending entry when the value
 * cannot be plain JSON; whether it is a valid option is the core's decision.
 */
export function jsonText(value: unknown, where: string, onFunction?: string): string {
  const ancestors = new Set<object>();
  const walk = (v: unknown, at: string): string => {
    switch (typeof v) {
      case 'string':
        if (LONE_SURROGATE.test(v)) fail(`${at}: must be well-formed Unicode text, without lone surrogates`);
        return JSON.stringify(v);
      case 'number':
        if (!Number.isFinite(v)) fail(`${at}: must be a finite number`);
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        break;
      case 'function':
        return fail(`${at}: must be plain JSON data, not a function${onFunction === undefined ? '' : `; ${onFunction}`}`);
      default:
        // bigint, symbol, undefined (an array element)
        return fail(`${at}: must be plain JSON data, not ${typeof v === 'bigint' ? 'a BigInt' : typeof v === 'undefined' ? 'undefined' : 'a symbol'}`);
    }
    if (v === null) return 'null';
    if (ancestors.has(v)) fail(`${at}: must be plain JSON data, not a cyclic structure`);
    ancestors.add(v);
    let text: string;
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (let i = 0; i < v.length; i++) items.push(walk(v[i], `${at}[${i}]`));
      text = `[${items.join(',')}]`;
    } else {
      if (!isPlainObject(v)) fail(`${at}: must be plain JSON data, not a class instance`);
      const members: string[] = [];
      for (const key of Object.keys(v)) {
        const where = member(at, key);
        if (LONE_SURROGATE.test(key)) fail(`${where}: the key must be well-formed Unicode text, without lone surrogates`);
        const item = v[key];
        if (item !== undefined) members.push(`${JSON.stringify(key)}:${walk(item, where)}`);
      }
      text = `{${members.join(',')}}`;
    }
    ancestors.delete(v);
    return text;
  };
  try {
    return walk(value, where);
  } catch (e) {
    // Only a structure nested past the call stack gets here without a message of its own.
    if (e instanceof RangeError) fail(`${where}: is nested too deeply or too large to be plain JSON data`);
    throw e;
  }
}

interface ResolvedTools {
  readonly manifestJson: string;
  readonly handlers: McpHandlerRunner | undefined;
}

/**
 * Which binding a configuration serves. `facade`: the host adapters (`.` and `/node`), which project
 * catalog artifacts and run no application code. `static`: `mcp()` from `/pulse`, whose router's
 * handlers run in process; only `mcp()` builds it.
 */
export type Binding = 'facade' | 'static';

/** Where the host adapters send anything executable. */
const USE_MCP = 'serve a router and its handlers with mcp() from @pulse-compute/mcp/pulse';

/** Options only the static binding has, and what of a handler they concern (the adapters run none). */
const STATIC_ONLY: Readonly<Record<string, string>> = { progress: 'reported by handlers', contentBlocks: 'returned by handlers' };

/**
 * `tools` of the host adapters: catalog artifacts only. A router, a tool source, a manifest or a
 * handler runner would run code (or a compiled program) in the adapter, which the adapters never do.
 */
function facadeTools(value: unknown, limits: { responseBytes: number; deadlineMs: number }, target: ConfigTarget): ResolvedTools {
  if (!isPlainObject(value) || !('catalog' in value) || 'manifest' in value || 'handlers' in value || 'runHandler' in value) {
    fail(`tools: must be catalog artifacts { catalog, schemas, routerId, target, endpoint }; the host adapters run no application code: ${USE_MCP}`);
  }
  checkSecret(value.backendBearerToken, 'tools.backendBearerToken', target, 'token', 'the token itself');
  // Snapshotted as JSON first: a function anywhere in the artifacts is named, with where code belongs.
  const artifacts = JSON.parse(jsonText(value, 'tools', USE_MCP)) as Record<string, unknown>;
  return { manifestJson: JSON.stringify(catalogManifest(artifacts, limits)), handlers: undefined };
}

/** `tools` of the static binding, as `mcp()` builds it: the compiled manifest and its runner. */
function staticTools(value: unknown): ResolvedTools {
  const { manifest, handlers } = value as McpToolSource;
  return { manifestJson: jsonText(manifest, 'tools.manifest'), handlers };
}

function resolveCore(value: unknown): McpCoreSource {
  const wa = (globalThis as { WebAssembly?: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;
  const ok =
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    (wa !== undefined && value instanceof wa.Module);
  if (!ok) fail('core: must be a WebAssembly.Module of pulse_core.wasm or its bytes');
  // Bytes are copied so later mutation by the caller cannot change the handler.
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
  return value as McpCoreSource;
}

/** A secret in a Fastly secret store (`[local_server.secret_stores]` when run locally). */
export interface McpSecretRef {
  readonly secretStore: string;
  readonly key: string;
}

/**
 * Where a configuration is used: `host` (Node and Fetch hosts, built at run time) or `native` (the
 * Fastly Native build, whose configuration is compiled into the module).
 */
export type ConfigTarget = 'host' | 'native';

/**
 * Where a secret option may come from, per target: one rule, so no secret ends up in an artifact.
 * `rule` says what the host takes instead of a reference.
 */
function checkSecret(value: unknown, option: string, target: ConfigTarget, noun: string, rule: string): void {
  if (target === 'host' && isPlainObject(value))
    fail(`${option}: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes ${rule}`);
  if (target === 'native' && typeof value === 'string')
    fail(`${option}: a ${noun} given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }`);
}

/**
 * Snapshots `options` into the configuration JSON; throws `PulseConfigError` for what only
 * TypeScript can see. Every other option error comes from the core when the engine is built.
 */
export function resolveOptions(options: unknown, target: ConfigTarget = 'host', binding: Binding = 'facade'): ResolvedOptions {
  const o = options === undefined ? {} : options;
  if (!isPlainObject(o)) fail('options: must be a plain object');
  const onFunction = binding === 'facade' ? USE_MCP : undefined;
  const members: string[] = [];
  let toolsValue: unknown;
  let core: McpCoreSource | undefined;
  const limits = { requestBytes: DEFAULT_LIMITS.requestBytes, responseBytes: DEFAULT_LIMITS.responseBytes, deadlineMs: DEFAULT_LIMITS.deadlineMs };
  let introspectionCache: StoreBounds | undefined;
  let rateLimitStore: StoreBounds | undefined;
  for (const key of Object.keys(o)) {
    const value = o[key];
    if (value === undefined) continue;
    // tools and core are TypeScript's own; every other key goes to the core as given.
    if (key === 'tools') toolsValue = value;
    else if (key === 'core') core = resolveCore(value);
    else {
      if (INTERNAL.has(key)) fail(`options: unknown key ${JSON.stringify(key)}`);
      if (binding === 'facade' && STATIC_ONLY[key] !== undefined) {
        fail(`${key}: ${STATIC_ONLY[key]}, which the host adapters do not run; it is an option of mcp() from @pulse-compute/mcp/pulse`);
      }
      if (key === 'requestStateKey') checkSecret(value, 'requestStateKey', target, 'key', 'the key itself (at least 32 bytes of text)');
      if (key === 'authorization' && isPlainObject(value)) checkSecret(value.clientSecret, 'authorization.clientSecret', target, 'secret', 'the secret itself');
      const where = member('', key);
      if (LONE_SURROGATE.test(key)) fail(`${where}: the key must be well-formed Unicode text, without lone surrogates`);
      const text = jsonText(value, where, onFunction);
      members.push(`${JSON.stringify(key)}:${text}`);
      if (key === 'limits') {
        // Read back from the snapshot: the core will judge the same values (or reject the options).
        const given = JSON.parse(text) as Record<string, unknown> | null;
        for (const k of ['requestBytes', 'responseBytes', 'deadlineMs'] as const) {
          const v = given?.[k];
          if (typeof v === 'number') limits[k] = v;
        }
      }
      // Read back from the snapshot, as the limits: the core judges the same values.
      if (key === 'authorization') {
        const cache = (JSON.parse(text) as { cache?: unknown } | null)?.cache;
        if (isPlainObject(cache)) introspectionCache = storeBounds(cache);
      }
      if (key === 'rateLimit') {
        const given: unknown = JSON.parse(text);
        if (isPlainObject(given)) rateLimitStore = storeBounds(given);
      }
    }
  }
  const tools = toolsValue === undefined ? undefined : binding === 'facade' ? facadeTools(toolsValue, limits, target) : staticTools(toolsValue);
  if (tools !== undefined) members.push(`"tools":${tools.manifestJson}`);
  const requestBytes = limits.requestBytes;
  return Object.freeze({
    configJson: `{${members.join(',')}}`,
    requestBytes,
    handlers: tools?.handlers,
    core,
    ...(introspectionCache === undefined ? {} : { introspectionCache }),
    ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
  });
}
