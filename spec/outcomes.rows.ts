// The one outcome table of the HTTP shell, authored here in the documented order of checks
// (native/core/README.md). `npm run build:outcomes` writes it beside it to spec/outcomes.json, which
// the Node host over TCP (test/hosts/outcomes.node.test.ts), the Fetch handler
// (test/hosts/outcomes.fetch.test.ts), the diff and `cargo test` (native/core/tests/outcome_table.rs)
// all run row by row.
import {
  ACCEPT,
  CT,
  DISCOVER_RESULT,
  DISCOVER_WITH_OFFSET,
  META,
  PROTOCOL,
  b64name,
  discoverWith,
  envelope,
  modernHeaders,
  nest,
  OMIT,
  type Id,
  type ProfileName,
  SERVER_INFO,
} from '../test/support/fixtures';

export interface OutcomeRequest {
  method: string;
  path: string;
  headers: [string, string][];
  /** Whole body (Content-Length on Node; one buffer on Fetch). */
  body?: string | Uint8Array;
  /** Body as separate chunks (chunked transfer on Node; a ReadableStream on Fetch). */
  chunks?: (string | Uint8Array)[];
  /** After the body/chunks the upload stalls and never completes. */
  stall?: boolean;
  /** Fetch only: the body stream errors after the chunks (an interrupted read). */
  fail?: boolean;
}

export interface OutcomeExpected {
  status: number;
  /** JSON-RPC error code; `null` = no error object (a result or an empty body). */
  code: number | null;
  /** Echoed id; 'absent' = the reply must carry no `id` member; 'any' = not fixed by the spec. */
  id?: Id | 'absent' | 'any';
  /** The reply body must be empty. */
  empty?: boolean;
  /** Exact `result` (200 rows). */
  result?: unknown;
  /** Exact `error.data`; rows without it require `data` to be absent. */
  data?: unknown;
  /** Further exact header values (lower-case names); `null`: the header must be absent. */
  headers?: Record<string, string | null>;
}

export interface OutcomeRow {
  name: string;
  profile?: ProfileName;
  only?: 'node' | 'fetch';
  request: OutcomeRequest;
  expected: OutcomeExpected;
  /** Upper bound for the exchange (stall rows). */
  timeoutMs?: number;
}

const DISCOVER = 'server/discover';
const post = (headers: [string, string][], body: string | Uint8Array, path = '/mcp'): OutcomeRequest => ({
  method: 'POST',
  path,
  headers,
  body,
});
const discoverBody = (id: Id = 1) => envelope(DISCOVER, id);
const modernPost = (method: string, body: string | Uint8Array, name?: string) => post(modernHeaders(method, name), body);
const ok = (id: Id): OutcomeExpected => ({ status: 200, code: null, id, result: DISCOVER_RESULT });
const err = (status: number, code: number, id: Id | 'absent' | 'any', data?: unknown): OutcomeExpected =>
  data === undefined ? { status, code, id } : { status, code, id, data };
const empty = (status: number, headers?: Record<string, string | null>): OutcomeExpected => ({
  status,
  code: null,
  empty: true,
  ...(headers ? { headers } : {}),
});
const withHeader = (h: [string, string][], name: string, value: string | null): [string, string][] => {
  const out = h.filter(([n]) => n.toLowerCase() !== name);
  if (value !== null) out.push([name, value]);
  return out;
};
const D = modernHeaders(DISCOVER);
/** What every reply to the listed origin carries with `cors: true`. */
const CORS = { 'access-control-allow-origin': 'https://app.example', 'access-control-expose-headers': 'www-authenticate', vary: 'Origin' };
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name',
  'access-control-max-age': '7200',
  allow: null,
};
const NO_CORS = {
  'access-control-allow-origin': null,
  'access-control-allow-methods': null,
  'access-control-allow-headers': null,
  'access-control-expose-headers': null,
  'access-control-max-age': null,
  vary: null,
};
/** A browser's preflight of a POST with the MCP headers. */
const preflight = (origin: string): OutcomeRequest => ({
  method: 'OPTIONS',
  path: '/mcp',
  headers: [
    ['origin', origin],
    ['access-control-request-method', 'POST'],
    ['access-control-request-headers', 'content-type,mcp-method,mcp-protocol-version'],
  ],
});
const metaWith = (m: Record<string, unknown>) => ({ _meta: m });
const metaWithout = (key: string) => {
  const m: Record<string, unknown> = { ...META };
  delete m[key];
  return { _meta: m };
};
const PV = 'io.modelcontextprotocol/protocolVersion';
const CC = 'io.modelcontextprotocol/clientCapabilities';
/** A discover body padded with trailing spaces to exactly `n` bytes. */
const padded = (n: number, id: Id = 1) => {
  const b = discoverBody(id);
  if (b.length > n) throw new Error('pad target too small');
  return b + ' '.repeat(n - b.length);
};
const raw = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
/** A discover body whose clientInfo.name is replaced by raw JSON text `nameJson`. */
const discoverNamed = (nameJson: string | number[], id: Id = 1) => {
  const b = discoverBody(id);
  const marker = JSON.stringify(META['io.modelcontextprotocol/clientInfo'].name);
  const at = b.indexOf(marker);
  return raw(b.slice(0, at), nameJson, b.slice(at + marker.length));
};
const legacyInit = (version: string, id: Id = 0) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'legacy-client', version: '1.0.0' } },
  });
const SUPPORTED = [PROTOCOL];
const LEGACY = '2025-06-18';
/** A legacy client's headers: both media types (in Codex's order) and the version header when given. */
const LEGACY_HEADERS = (version: string | null): [string, string][] =>
  version === null ? [['accept', 'text/event-stream, application/json'], CT] : [['accept', 'text/event-stream, application/json'], CT, ['mcp-protocol-version', version]];
const toolsCall = (id: Id | undefined, name = 'echo') =>
  envelope('tools/call', id, { name, arguments: {}, _meta: META });

export const OUTCOMES: OutcomeRow[] = [
  // ── Discovery: 200 / resultType complete; readable ids echoed exactly ──
  { name: 'discover, string id', request: modernPost(DISCOVER, discoverBody('abc')), expected: ok('abc') },
  { name: 'discover, integer id', request: modernPost(DISCOVER, discoverBody(7)), expected: ok(7) },
  { name: 'discover, id 0', request: modernPost(DISCOVER, discoverBody(0)), expected: ok(0) },
  { name: 'discover, negative id', request: modernPost(DISCOVER, discoverBody(-5)), expected: ok(-5) },
  {
    name: 'discover, id 2^53-1',
    request: modernPost(DISCOVER, discoverBody(Number.MAX_SAFE_INTEGER)),
    expected: ok(Number.MAX_SAFE_INTEGER),
  },
  {
    name: 'discover, id -(2^53-1)',
    request: modernPost(DISCOVER, discoverBody(-Number.MAX_SAFE_INTEGER)),
    expected: ok(-Number.MAX_SAFE_INTEGER),
  },
  { name: 'discover, empty string id', request: modernPost(DISCOVER, discoverBody('')), expected: ok('') },
  {
    name: 'discover, id with escapes and non-ASCII',
    request: modernPost(DISCOVER, discoverBody('q"\\\n\u00e9\u2713\u{1F600}\u0001')),
    expected: ok('q"\\\n\u00e9\u2713\u{1F600}\u0001'),
  },
  {
    name: 'discover, \\u-escaped id is echoed as the same string',
    request: modernPost(DISCOVER, discoverBody(1).replace('"id":1', '"id":"\\u0061\\ud83d\\ude00"')),
    expected: ok('a\u{1F600}'),
  },
  {
    name: 'discover, extra _meta keys of real clients accepted',
    request: modernPost(
      DISCOVER,
      envelope(DISCOVER, 2, metaWith({ ...META, 'claudecode/toolUseId': 'x', progressToken: 3, traceparent: 't' })),
    ),
    expected: ok(2),
  },
  {
    name: 'discover, Claude Code client capabilities',
    request: modernPost(
      DISCOVER,
      envelope(DISCOVER, 3, metaWith({ ...META, [CC]: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } } })),
    ),
    expected: ok(3),
  },
  {
    name: 'discover, header names in mixed case',
    request: post(
      [
        ['Accept', 'application/json, text/event-stream'],
        ['Content-Type', 'application/json'],
        ['MCP-Protocol-Version', PROTOCOL],
        ['Mcp-Method', DISCOVER],
      ],
      discoverBody(4),
    ),
    expected: ok(4),
  },
  {
    name: 'discover, body sent in many chunks',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: discoverBody(5).match(/[\s\S]{1,7}/g)! },
    expected: ok(5),
  },
  {
    name: 'discover, one-byte chunks split inside a multi-byte character',
    request: {
      method: 'POST',
      path: '/mcp',
      headers: D,
      chunks: [...Buffer.from(envelope(DISCOVER, '\u{1F600}\u00e9'))].map((b) => Uint8Array.of(b)),
    },
    expected: ok('\u{1F600}\u00e9'),
  },
  {
    name: 'discover, trailing whitespace after the body',
    request: modernPost(DISCOVER, discoverBody(6) + ' \r\n\t '),
    expected: ok(6),
  },
  {
    name: 'discover, valid surrogate pair and multi-byte UTF-8 in strings',
    request: modernPost(DISCOVER, discoverNamed('"\\ud83d\\ude00 \u00e9\u2713\u{1F600}"')),
    expected: ok(1),
  },
  {
    name: 'discover, tiny magnitude number underflows to a finite 0 (accepted)',
    request: modernPost(DISCOVER, discoverWith('1e-400')),
    expected: ok(1),
  },
  {
    name: 'discover, largest finite double accepted',
    request: modernPost(DISCOVER, discoverWith('[1.7976931348623157e308,-1.7976931348623157e308]')),
    expected: ok(1),
  },
  {
    name: 'discover, nesting exactly at the 32-level limit',
    request: modernPost(DISCOVER, discoverWith(nest(32 - DISCOVER_WITH_OFFSET))),
    expected: ok(1),
  },

  // ── Other endpoint: 404 empty (path is checked first) ──
  { name: 'other path', request: post(D, discoverBody(), '/other'), expected: empty(404) },
  { name: 'path with trailing slash', request: post(D, discoverBody(), '/mcp/'), expected: empty(404) },
  { name: 'path in different case', request: post(D, discoverBody(), '/MCP'), expected: empty(404) },
  { name: 'root path', request: post(D, discoverBody(), '/'), expected: empty(404) },
  { name: 'sub path', request: post(D, discoverBody(), '/mcp/x'), expected: empty(404) },
  { name: 'path precedes method', request: { method: 'GET', path: '/other', headers: [ACCEPT] }, expected: empty(404) },
  {
    name: 'path precedes Origin',
    request: post([...D, ['origin', 'https://evil.example']], discoverBody(), '/other'),
    expected: empty(404),
  },

  // ── Non-POST: 405 with Allow: POST ──
  { name: 'GET', request: { method: 'GET', path: '/mcp', headers: [['accept', 'text/event-stream']] }, expected: empty(405, { allow: 'POST' }) },
  { name: 'DELETE', request: { method: 'DELETE', path: '/mcp', headers: [] }, expected: empty(405, { allow: 'POST' }) },
  { name: 'PUT', request: { method: 'PUT', path: '/mcp', headers: D, body: discoverBody() }, expected: empty(405, { allow: 'POST' }) },
  { name: 'PATCH', request: { method: 'PATCH', path: '/mcp', headers: D, body: discoverBody() }, expected: empty(405, { allow: 'POST' }) },
  { name: 'OPTIONS', request: { method: 'OPTIONS', path: '/mcp', headers: [] }, expected: empty(405, { allow: 'POST' }) },
  { name: 'HEAD', request: { method: 'HEAD', path: '/mcp', headers: [] }, expected: empty(405, { allow: 'POST' }) },
  {
    name: 'method precedes Origin',
    request: { method: 'GET', path: '/mcp', headers: [['origin', 'https://evil.example']] },
    expected: empty(405, { allow: 'POST' }),
  },

  // ── Origin: present and not allowed → 403 empty; absent is fine ──
  { name: 'Origin present, default profile', request: post([...D, ['origin', 'https://evil.example']], discoverBody()), expected: empty(403) },
  { name: 'loopback Origin still rejected by default', request: post([...D, ['origin', 'http://127.0.0.1:3000']], discoverBody()), expected: empty(403) },
  { name: 'Origin "null" rejected', request: post([...D, ['origin', 'null']], discoverBody()), expected: empty(403) },
  { name: 'allowed Origin', profile: 'origins', request: post([...D, ['origin', 'https://app.example']], discoverBody(8)), expected: ok(8) },
  { name: 'absent Origin with an allowlist', profile: 'origins', request: post(D, discoverBody(9)), expected: ok(9) },
  { name: 'Origin not in the allowlist', profile: 'origins', request: post([...D, ['origin', 'https://evil.example']], discoverBody()), expected: empty(403) },
  { name: 'Origin with trailing slash is not exact', profile: 'origins', request: post([...D, ['origin', 'https://app.example/']], discoverBody()), expected: empty(403) },
  { name: 'Origin with explicit port is not exact', profile: 'origins', request: post([...D, ['origin', 'https://app.example:443']], discoverBody()), expected: empty(403) },
  { name: 'Origin in other case is not exact', profile: 'origins', request: post([...D, ['origin', 'HTTPS://APP.EXAMPLE']], discoverBody()), expected: empty(403) },
  { name: 'Origin of another scheme', profile: 'origins', request: post([...D, ['origin', 'http://app.example']], discoverBody()), expected: empty(403) },
  {
    name: 'Origin precedes Accept',
    request: post([CT, ['origin', 'https://evil.example']], discoverBody()),
    expected: empty(403),
  },

  // ── cors: true: a listed origin's preflight is granted, and every reply to it names it ──
  { name: 'cors: preflight of a listed origin', profile: 'cors', request: preflight('https://app.example'), expected: empty(204, PREFLIGHT) },
  { name: 'cors: preflight of another origin', profile: 'cors', request: preflight('https://evil.example'), expected: empty(403, NO_CORS) },
  { name: 'cors: OPTIONS without Origin', profile: 'cors', request: { method: 'OPTIONS', path: '/mcp', headers: [] }, expected: empty(405, { allow: 'POST', ...NO_CORS }) },
  { name: 'cors: preflight of another path is 404, naming the origin', profile: 'cors', request: { ...preflight('https://app.example'), path: '/other' }, expected: empty(404, CORS) },
  { name: 'cors off: a listed origin\'s preflight', profile: 'origins', request: preflight('https://app.example'), expected: empty(405, { allow: 'POST', ...NO_CORS }) },
  { name: 'cors: POST of a listed origin', profile: 'cors', request: post([...D, ['origin', 'https://app.example']], discoverBody(20)), expected: { ...ok(20), headers: CORS } },
  { name: 'cors: POST without Origin', profile: 'cors', request: post(D, discoverBody(21)), expected: { ...ok(21), headers: NO_CORS } },
  { name: 'cors off: POST of a listed origin', profile: 'origins', request: post([...D, ['origin', 'https://app.example']], discoverBody(22)), expected: { ...ok(22), headers: NO_CORS } },
  { name: 'cors: POST of another origin', profile: 'cors', request: post([...D, ['origin', 'https://evil.example']], discoverBody()), expected: empty(403, NO_CORS) },
  { name: 'cors: GET of a listed origin', profile: 'cors', request: { method: 'GET', path: '/mcp', headers: [['origin', 'https://app.example']] }, expected: empty(405, { allow: 'POST', ...CORS }) },
  { name: 'cors: 406 to a listed origin', profile: 'cors', request: post([CT, ['origin', 'https://app.example']], discoverBody()), expected: empty(406, CORS) },
  { name: 'cors: parse error to a listed origin', profile: 'cors', request: post([...D, ['origin', 'https://app.example']], '{"jsonrpc":'), expected: { ...err(400, -32700, 'absent'), headers: CORS } },

  // ── Accept must list application/json and text/event-stream → else 406 empty ──
  { name: 'Accept missing', request: post(withHeader(D, 'accept', null), discoverBody()), expected: empty(406) },
  { name: 'Accept application/json only', request: post(withHeader(D, 'accept', 'application/json'), discoverBody()), expected: empty(406) },
  { name: 'Accept text/event-stream only', request: post(withHeader(D, 'accept', 'text/event-stream'), discoverBody()), expected: empty(406) },
  { name: 'Accept */* does not count', request: post(withHeader(D, 'accept', '*/*'), discoverBody()), expected: empty(406) },
  { name: 'Accept application/* and text/* do not count', request: post(withHeader(D, 'accept', 'application/*, text/*'), discoverBody()), expected: empty(406) },
  { name: 'Accept with a look-alike type', request: post(withHeader(D, 'accept', 'application/jsonx, text/event-stream'), discoverBody()), expected: empty(406) },
  { name: 'Accept in reverse order (Codex)', request: post(withHeader(D, 'accept', 'text/event-stream, application/json'), discoverBody(10)), expected: ok(10) },
  { name: 'Accept with extra ranges', request: post(withHeader(D, 'accept', 'text/html, application/json, text/event-stream, */*'), discoverBody(11)), expected: ok(11) },
  { name: 'Accept with parameters', request: post(withHeader(D, 'accept', 'application/json;q=0.9, text/event-stream;q=0.8'), discoverBody(12)), expected: ok(12) },
  { name: 'Accept without spaces', request: post(withHeader(D, 'accept', 'application/json,text/event-stream'), discoverBody(13)), expected: ok(13) },
  {
    name: 'Accept media types are case-insensitive (RFC 9110 §8.3.1)',
    request: post(withHeader(D, 'accept', 'Application/JSON, Text/Event-Stream'), discoverBody(14)),
    expected: ok(14),
  },
  {
    name: 'Accept split over two header lines is joined',
    request: post([...withHeader(D, 'accept', 'application/json'), ['accept', 'text/event-stream']], discoverBody(15)),
    expected: ok(15),
  },
  {
    name: 'Accept precedes Content-Type',
    request: post(withHeader(withHeader(D, 'accept', null), 'content-type', 'text/plain'), discoverBody()),
    expected: empty(406),
  },

  // ── Content-Type application/json (charset=utf-8 ok) → else 415; Content-Encoding ≠ identity → 415 ──
  { name: 'Content-Type missing', request: post(withHeader(D, 'content-type', null), discoverBody()), expected: empty(415) },
  { name: 'Content-Type text/plain', request: post(withHeader(D, 'content-type', 'text/plain'), discoverBody()), expected: empty(415) },
  { name: 'Content-Type look-alike', request: post(withHeader(D, 'content-type', 'application/jsonp'), discoverBody()), expected: empty(415) },
  { name: 'Content-Type json-seq', request: post(withHeader(D, 'content-type', 'application/json-seq'), discoverBody()), expected: empty(415) },
  { name: 'Content-Type form', request: post(withHeader(D, 'content-type', 'application/x-www-form-urlencoded'), discoverBody()), expected: empty(415) },
  { name: 'Content-Type other charset', request: post(withHeader(D, 'content-type', 'application/json; charset=iso-8859-1'), discoverBody()), expected: empty(415) },
  { name: 'Content-Type with charset=utf-8', request: post(withHeader(D, 'content-type', 'application/json; charset=utf-8'), discoverBody(16)), expected: ok(16) },
  { name: 'Content-Type with charset=UTF-8, no space', request: post(withHeader(D, 'content-type', 'application/json;charset=UTF-8'), discoverBody(17)), expected: ok(17) },
  {
    name: 'Content-Type media type is case-insensitive (RFC 9110 §8.3.1)',
    request: post(withHeader(D, 'content-type', 'Application/JSON'), discoverBody(18)),
    expected: ok(18),
  },
  { name: 'Content-Encoding gzip', request: post([...D, ['content-encoding', 'gzip']], discoverBody()), expected: empty(415) },
  { name: 'Content-Encoding br', request: post([...D, ['content-encoding', 'br']], discoverBody()), expected: empty(415) },
  { name: 'Content-Encoding identity', request: post([...D, ['content-encoding', 'identity']], discoverBody(19)), expected: ok(19) },
  {
    name: 'media type precedes the body limit',
    profile: 'small',
    request: post(withHeader(D, 'content-type', 'text/plain'), padded(4096)),
    expected: empty(415),
  },
  { name: 'media type precedes JSON parsing', request: post(withHeader(D, 'content-type', 'text/plain'), '{'), expected: empty(415) },

  // ── Body limit → 413 -32600 without id, counted on actual bytes, before parsing ──
  { name: 'body exactly at the limit (small)', profile: 'small', request: post(D, padded(1024, 20)), expected: ok(20) },
  { name: 'body one byte over the limit (small)', profile: 'small', request: post(D, padded(1025)), expected: err(413, -32600, 'absent') },
  {
    name: 'chunked body one byte over the limit (small)',
    profile: 'small',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: [padded(1000), ' '.repeat(25)] },
    expected: err(413, -32600, 'absent'),
  },
  {
    name: 'chunked body exactly at the limit (small)',
    profile: 'small',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: [padded(1000, 21), ' '.repeat(24)] },
    expected: ok(21),
  },
  { name: 'body at the default 64 KiB limit', request: post(D, padded(65536, 22)), expected: ok(22) },
  { name: 'body one byte over the default limit', request: post(D, padded(65537)), expected: err(413, -32600, 'absent') },
  {
    name: 'over-limit body is rejected before JSON parsing',
    profile: 'small',
    request: post(D, '{' + ' '.repeat(2000)),
    expected: err(413, -32600, 'absent'),
  },
  {
    name: 'body limit precedes header checks of the modern path',
    profile: 'small',
    request: post([ACCEPT, CT], padded(2000)),
    expected: err(413, -32600, 'absent'),
  },
  {
    name: 'over-limit upload answered at the first byte over, without waiting for the rest',
    profile: 'small',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: [padded(1000), ' '.repeat(200)], stall: true },
    expected: err(413, -32600, 'absent'),
    timeoutMs: 3000,
  },

  // ── Interrupted / stalled / deadline → 408 -32600 without id ──
  {
    name: 'stalled body hits the deadline',
    profile: 'slow',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: [discoverBody().slice(0, 20)], stall: true },
    expected: err(408, -32600, 'absent'),
    timeoutMs: 3000,
  },
  {
    name: 'body stream fails mid-read',
    only: 'fetch',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: [discoverBody().slice(0, 20)], fail: true },
    expected: err(408, -32600, 'absent'),
    timeoutMs: 3000,
  },

  // ── Invalid JSON → 400 -32700 (no id: nothing was read) ──
  { name: 'empty body', request: post(D, ''), expected: err(400, -32700, 'absent') },
  { name: 'truncated object', request: post(D, '{'), expected: err(400, -32700, 'absent') },
  { name: 'truncated request', request: post(D, discoverBody(1).slice(0, -2)), expected: err(400, -32700, 'absent') },
  { name: 'trailing garbage', request: post(D, discoverBody(1) + ' x'), expected: err(400, -32700, 'absent') },
  { name: 'two JSON values', request: post(D, discoverBody(1) + discoverBody(2)), expected: err(400, -32700, 'absent') },
  { name: 'duplicate top-level key', request: post(D, discoverBody(1).replace('"id":1', '"id":1,"id":2')), expected: err(400, -32700, 'absent') },
  {
    name: 'duplicate key after unescaping',
    request: post(D, discoverBody(1).replace('"id":1', '"id":1,"\\u0069d":1')),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'duplicate key deep inside _meta',
    request: post(D, discoverWith('{"a":1,"b":{"c":1,"c":2}}')),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'duplicate key in an object inside an array inside an object',
    request: post(D, discoverWith('{"p":[{"a":1,"a":1}]}')),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'duplicate key in an object inside nested arrays',
    request: post(D, discoverWith('[[{"a":1,"a":1}]]')),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'batch whose element has a duplicate key is invalid JSON first',
    request: post(D, `[{"a":1,"a":2}]`),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'request whose id is an array holding a duplicate key is invalid JSON first',
    request: post(D, discoverBody(1).replace('"id":1', '"id":[{"a":1,"a":2}]')),
    expected: err(400, -32700, 'absent'),
  },
  { name: 'lone high surrogate escape', request: post(D, discoverNamed('"\\ud800"')), expected: err(400, -32700, 'absent') },
  { name: 'lone low surrogate escape', request: post(D, discoverNamed('"\\udc00x"')), expected: err(400, -32700, 'absent') },
  { name: 'high surrogate followed by a non-surrogate escape', request: post(D, discoverNamed('"\\ud800\\u0041"')), expected: err(400, -32700, 'absent') },
  { name: 'lone surrogate escape in a key', request: post(D, discoverWith('{"\\udfff":1}')), expected: err(400, -32700, 'absent') },
  { name: 'number overflows to infinity (1e400)', request: post(D, discoverWith('1e400')), expected: err(400, -32700, 'absent') },
  { name: 'negative overflow (-1e400)', request: post(D, discoverWith('-1e400')), expected: err(400, -32700, 'absent') },
  { name: 'just above the largest double', request: post(D, discoverWith('1.7976931348623159e308')), expected: err(400, -32700, 'absent') },
  { name: 'huge integer literal overflows', request: post(D, discoverWith('1' + '0'.repeat(400))), expected: err(400, -32700, 'absent') },
  { name: 'leading zero', request: post(D, discoverWith('01')), expected: err(400, -32700, 'absent') },
  { name: 'leading plus', request: post(D, discoverWith('+1')), expected: err(400, -32700, 'absent') },
  { name: 'bare fraction', request: post(D, discoverWith('.5')), expected: err(400, -32700, 'absent') },
  { name: 'dangling exponent', request: post(D, discoverWith('1e')), expected: err(400, -32700, 'absent') },
  { name: 'NaN literal', request: post(D, discoverWith('NaN')), expected: err(400, -32700, 'absent') },
  { name: 'Infinity literal', request: post(D, discoverWith('Infinity')), expected: err(400, -32700, 'absent') },
  { name: 'single quotes', request: post(D, discoverWith("'x'")), expected: err(400, -32700, 'absent') },
  { name: 'trailing comma', request: post(D, discoverWith('[1,2,]')), expected: err(400, -32700, 'absent') },
  { name: 'comment', request: post(D, discoverWith('/*c*/1')), expected: err(400, -32700, 'absent') },
  { name: 'raw control character in a string', request: post(D, discoverNamed('"a\u0001b"')), expected: err(400, -32700, 'absent') },
  { name: 'raw tab in a string', request: post(D, discoverNamed('"a\tb"')), expected: err(400, -32700, 'absent') },
  { name: 'unknown escape', request: post(D, discoverNamed('"a\\xb"')), expected: err(400, -32700, 'absent') },
  { name: 'short unicode escape', request: post(D, discoverNamed('"\\u12"')), expected: err(400, -32700, 'absent') },
  { name: 'bad UTF-8 byte 0xFF', request: post(D, discoverNamed(['"'.charCodeAt(0), 0xff, '"'.charCodeAt(0)])), expected: err(400, -32700, 'absent') },
  { name: 'overlong UTF-8 (C0 80)', request: post(D, discoverNamed([0x22, 0xc0, 0x80, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'overlong UTF-8 (E0 80 AF)', request: post(D, discoverNamed([0x22, 0xe0, 0x80, 0xaf, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'UTF-8 encoded surrogate (ED A0 80)', request: post(D, discoverNamed([0x22, 0xed, 0xa0, 0x80, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'UTF-8 above U+10FFFF (F4 90 80 80)', request: post(D, discoverNamed([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'UTF-8 lone continuation byte', request: post(D, discoverNamed([0x22, 0x80, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'UTF-8 truncated sequence', request: post(D, discoverNamed([0x22, 0xe2, 0x82, 0x22])), expected: err(400, -32700, 'absent') },
  { name: 'bad UTF-8 outside strings', request: post(D, raw(discoverBody(1), [0xff])), expected: err(400, -32700, 'absent') },
  {
    name: 'nesting one level over the 32-level limit',
    request: post(D, discoverWith(nest(33 - DISCOVER_WITH_OFFSET))),
    expected: err(400, -32700, 'absent'),
  },
  { name: 'deep array as the whole body', request: post(D, nest(40)), expected: err(400, -32700, 'absent') },
  { name: 'deep objects', request: post(D, discoverWith('{"a":'.repeat(40) + '1' + '}'.repeat(40))), expected: err(400, -32700, 'absent') },
  {
    name: 'depth limit lowered to 8: level 8 accepted',
    profile: 'shallow',
    request: post(D, discoverWith(nest(8 - DISCOVER_WITH_OFFSET), 23)),
    expected: ok(23),
  },
  {
    name: 'depth limit lowered to 8: level 9 rejected',
    profile: 'shallow',
    request: post(D, discoverWith(nest(9 - DISCOVER_WITH_OFFSET))),
    expected: err(400, -32700, 'absent'),
  },
  {
    name: 'invalid JSON split across chunks',
    request: { method: 'POST', path: '/mcp', headers: D, chunks: ['{"jsonrpc":"2.0",', '"id":1,"id"', ':2}'] },
    expected: err(400, -32700, 'absent'),
  },

  // ── Invalid envelope → 400 -32600 (id echoed when readable) ──
  { name: 'batch', request: post(D, `[${discoverBody(1)}]`), expected: err(400, -32600, 'absent') },
  { name: 'empty batch', request: post(D, '[]'), expected: err(400, -32600, 'absent') },
  { name: 'string body', request: post(D, '"hello"'), expected: err(400, -32600, 'absent') },
  { name: 'number body', request: post(D, '1'), expected: err(400, -32600, 'absent') },
  { name: 'null body', request: post(D, 'null'), expected: err(400, -32600, 'absent') },
  { name: 'empty object', request: post(D, '{}'), expected: err(400, -32600, 'absent') },
  { name: 'client result response', request: post(D, '{"jsonrpc":"2.0","id":1,"result":{}}'), expected: err(400, -32600, 'any') },
  {
    name: 'client error response',
    request: post(D, '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}'),
    expected: err(400, -32600, 'any'),
  },
  { name: 'jsonrpc "1.0"', request: post(D, discoverBody(24).replace('"2.0"', '"1.0"')), expected: err(400, -32600, 24) },
  { name: 'jsonrpc as a number', request: post(D, discoverBody(25).replace('"2.0"', '2.0')), expected: err(400, -32600, 25) },
  { name: 'jsonrpc missing', request: post(D, discoverBody(26).replace('"jsonrpc":"2.0",', '')), expected: err(400, -32600, 26) },
  { name: 'extra envelope member', request: post(D, discoverBody(27).replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","extra":1')), expected: err(400, -32600, 27) },
  { name: 'method missing', request: post(D, '{"jsonrpc":"2.0","id":28,"params":{}}'), expected: err(400, -32600, 28) },
  { name: 'method not a string', request: post(D, discoverBody(29).replace('"server/discover"', '7')), expected: err(400, -32600, 29) },
  { name: 'id null', request: post(D, discoverBody(1).replace('"id":1', '"id":null')), expected: err(400, -32600, 'absent') },
  { name: 'id fractional', request: post(D, discoverBody(1).replace('"id":1', '"id":1.5')), expected: err(400, -32600, 'absent') },
  { name: 'id integral but written 1.0', request: post(D, discoverBody(1).replace('"id":1', '"id":1.0')), expected: err(400, -32600, 'absent') },
  { name: 'id with exponent', request: post(D, discoverBody(1).replace('"id":1', '"id":1e3')), expected: err(400, -32600, 'absent') },
  { name: 'id 2^53 (unsafe)', request: post(D, discoverBody(1).replace('"id":1', '"id":9007199254740992')), expected: err(400, -32600, 'absent') },
  { name: 'id -2^53 (unsafe)', request: post(D, discoverBody(1).replace('"id":1', '"id":-9007199254740992')), expected: err(400, -32600, 'absent') },
  { name: 'id boolean', request: post(D, discoverBody(1).replace('"id":1', '"id":true')), expected: err(400, -32600, 'absent') },
  { name: 'id object', request: post(D, discoverBody(1).replace('"id":1', '"id":{}')), expected: err(400, -32600, 'absent') },
  { name: 'id array', request: post(D, discoverBody(1).replace('"id":1', '"id":[1]')), expected: err(400, -32600, 'absent') },
  { name: 'params array → invalid params', request: post(D, envelope(DISCOVER, 30, [])), expected: err(400, -32602, 30) },

  // ── Modern path: header presence, then _meta, then agreement, then revision ──
  { name: 'MCP-Protocol-Version missing', request: post(withHeader(D, 'mcp-protocol-version', null), discoverBody(31)), expected: err(400, -32020, 31) },
  { name: 'Mcp-Method missing', request: post(withHeader(D, 'mcp-method', null), discoverBody(32)), expected: err(400, -32020, 32) },
  {
    name: 'header presence precedes _meta validation',
    request: post(withHeader(D, 'mcp-protocol-version', null), envelope(DISCOVER, 33, {})),
    expected: err(400, -32020, 33),
  },
  { name: '_meta missing', request: modernPost(DISCOVER, envelope(DISCOVER, 34, {})), expected: err(400, -32602, 34) },
  { name: 'params missing', request: modernPost(DISCOVER, envelope(DISCOVER, 35, OMIT)), expected: err(400, -32602, 35) },
  { name: '_meta protocolVersion missing', request: modernPost(DISCOVER, envelope(DISCOVER, 36, metaWithout(PV))), expected: err(400, -32602, 36) },
  { name: '_meta clientCapabilities missing', request: modernPost(DISCOVER, envelope(DISCOVER, 37, metaWithout(CC))), expected: err(400, -32602, 37) },
  { name: '_meta protocolVersion not a string', request: modernPost(DISCOVER, envelope(DISCOVER, 38, metaWith({ ...META, [PV]: 20260728 }))), expected: err(400, -32602, 38) },
  { name: '_meta clientCapabilities a string', request: modernPost(DISCOVER, envelope(DISCOVER, 39, metaWith({ ...META, [CC]: 'x' }))), expected: err(400, -32602, 39) },
  { name: '_meta clientCapabilities an array', request: modernPost(DISCOVER, envelope(DISCOVER, 40, metaWith({ ...META, [CC]: [] }))), expected: err(400, -32602, 40) },
  { name: '_meta clientCapabilities null', request: modernPost(DISCOVER, envelope(DISCOVER, 41, metaWith({ ...META, [CC]: null }))), expected: err(400, -32602, 41) },
  { name: '_meta not an object', request: modernPost(DISCOVER, envelope(DISCOVER, 42, { _meta: 'x' })), expected: err(400, -32602, 42) },
  {
    name: 'protocol version header older than body',
    request: post(withHeader(D, 'mcp-protocol-version', '2025-11-25'), discoverBody(43)),
    expected: err(400, -32020, 43),
  },
  {
    name: 'protocol version body older than header',
    request: modernPost(DISCOVER, envelope(DISCOVER, 44, metaWith({ ...META, [PV]: '2025-11-25' }))),
    expected: err(400, -32020, 44),
  },
  { name: 'Mcp-Method disagrees with body', request: post(withHeader(D, 'mcp-method', 'tools/list'), discoverBody(45)), expected: err(400, -32020, 45) },
  {
    name: 'Mcp-Method is compared case-sensitively',
    request: post(withHeader(D, 'mcp-method', 'Server/Discover'), discoverBody(46)),
    expected: err(400, -32020, 46),
  },
  {
    name: 'repeated Mcp-Method lines are joined and then disagree',
    request: post([...D, ['mcp-method', DISCOVER]], discoverBody(47)),
    expected: err(400, -32020, 47),
  },
  {
    name: '_meta validation precedes agreement',
    request: post(withHeader(D, 'mcp-method', 'tools/list'), envelope(DISCOVER, 48, {})),
    expected: err(400, -32602, 48),
  },
  {
    name: 'agreement precedes revision',
    request: post(
      withHeader(D, 'mcp-protocol-version', '2099-01-01'),
      envelope(DISCOVER, 49, metaWith({ ...META, [PV]: '2098-01-01' })),
    ),
    expected: err(400, -32020, 49),
  },
  {
    name: 'unsupported revision (header and body agree)',
    request: post(
      withHeader(D, 'mcp-protocol-version', '2099-01-01'),
      envelope(DISCOVER, 50, metaWith({ ...META, [PV]: '2099-01-01' })),
    ),
    expected: err(400, -32022, 50, { supported: SUPPORTED, requested: '2099-01-01' }),
  },
  {
    name: 'legacy revision in a modern envelope is unsupported',
    request: post(
      withHeader(D, 'mcp-protocol-version', '2025-06-18'),
      envelope(DISCOVER, 51, metaWith({ ...META, [PV]: '2025-06-18' })),
    ),
    expected: err(400, -32022, 51, { supported: SUPPORTED, requested: '2025-06-18' }),
  },
  { name: 'tools/call without Mcp-Name', request: modernPost('tools/call', toolsCall(52)), expected: err(400, -32020, 52) },
  { name: 'tools/call with a disagreeing Mcp-Name', request: modernPost('tools/call', toolsCall(53), 'other'), expected: err(400, -32020, 53) },
  {
    name: 'tools/call with a base64 Mcp-Name that decodes to another name',
    request: modernPost('tools/call', toolsCall(54), b64name('other')),
    expected: err(400, -32020, 54),
  },
  {
    name: 'tools/call with a malformed base64 Mcp-Name',
    request: modernPost('tools/call', toolsCall(55), '=?base64?!!!?='),
    expected: err(400, -32020, 55),
  },
  {
    name: 'name agreement passes, then the method allowlist (no tools) → -32601',
    request: modernPost('tools/call', toolsCall(56), 'echo'),
    expected: err(404, -32601, 56),
  },
  {
    name: 'base64 Mcp-Name is decoded before comparing',
    request: modernPost('tools/call', toolsCall(57), b64name('echo')),
    expected: err(404, -32601, 57),
  },
  {
    name: 'base64 Mcp-Name for a non-ASCII name',
    request: modernPost('tools/call', toolsCall(58, 'h\u00e9llo \u2713'), b64name('h\u00e9llo \u2713')),
    expected: err(404, -32601, 58),
  },

  // ── Removed and unknown methods with a valid modern envelope → 404 -32601 ──
  ...['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'subscriptions/listen',
    'tools/list', 'prompts/list', 'resources/list', 'completion/complete', 'example/unknown'].map(
    (m, i): OutcomeRow => ({
      name: `removed or unknown method ${m}`,
      request: modernPost(m, envelope(m, 60 + i)),
      expected: err(404, -32601, 60 + i),
    }),
  ),
  {
    name: 'unknown method, string id',
    request: modernPost('example/unknown', envelope('example/unknown', 'u-1')),
    expected: err(404, -32601, 'u-1'),
  },

  // ── Legacy initialize on the modern-only profile → 400 -32022, supported + requested echo ──
  {
    name: 'legacy initialize 2025-06-18 (Codex)',
    request: post([['accept', 'text/event-stream, application/json'], CT], legacyInit('2025-06-18', 0)),
    expected: err(400, -32022, 0, { supported: SUPPORTED, requested: '2025-06-18' }),
  },
  {
    name: 'legacy initialize 2025-11-25 (SDK default)',
    request: post([ACCEPT, CT], legacyInit('2025-11-25', 'init-1')),
    expected: err(400, -32022, 'init-1', { supported: SUPPORTED, requested: '2025-11-25' }),
  },

  // ── Notifications → 202 empty, nothing executed ──
  {
    name: 'notifications/initialized without modern headers',
    request: post([ACCEPT, CT], '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
    expected: empty(202),
  },
  {
    name: 'notifications/cancelled with the modern envelope',
    request: modernPost('notifications/cancelled', envelope('notifications/cancelled', undefined, { requestId: 1, _meta: META })),
    expected: empty(202),
  },
  { name: 'tools/call without an id is a notification', request: modernPost('tools/call', toolsCall(undefined), 'echo'), expected: empty(202) },
  {
    name: 'unknown notification',
    request: post([ACCEPT, CT], '{"jsonrpc":"2.0","method":"notifications/example","params":{}}'),
    expected: empty(202),
  },
  {
    name: 'notification with a bad jsonrpc member is invalid',
    request: post([ACCEPT, CT], '{"jsonrpc":"1.0","method":"notifications/initialized"}'),
    expected: err(400, -32600, 'absent'),
  },
  {
    name: 'notification whose Mcp-Method disagrees',
    request: modernPost('notifications/other', '{"jsonrpc":"2.0","method":"notifications/cancelled"}'),
    expected: err(400, -32020, 'absent'),
  },

  // ── Envelope and ladder corners ──
  {
    name: 'params a string',
    request: post(D, '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":"x"}'),
    expected: err(400, -32600, 1),
  },
  {
    name: 'tools/call whose name is not a string',
    request: modernPost('tools/call', envelope('tools/call', 1, { name: 1, _meta: META }), 'echo'),
    expected: err(400, -32020, 1),
  },
  {
    name: 'resources/read whose Mcp-Name disagrees with the uri',
    request: modernPost('resources/read', envelope('resources/read', 1, { uri: 'file:///y', _meta: META }), 'file:///x'),
    expected: err(400, -32020, 1),
  },
  {
    name: 'a parse error before the limit wins over 413',
    profile: 'small',
    // Chunked: with a Content-Length over the limit the head alone decides 413.
    request: { method: 'POST', path: '/mcp', headers: D, chunks: ['{]', ' '.repeat(1023)] },
    expected: err(400, -32700, 'absent'),
  },

  // ── The opt-in legacy profile (2025-06-18 beside 2026-07-28) ──
  {
    name: 'legacy profile: initialize',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(null), legacyInit('2025-06-18', 0)),
    expected: { status: 200, code: null, id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: SERVER_INFO } },
  },
  {
    name: 'legacy profile: initialize offering another version gets 2025-06-18',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(null), legacyInit('2025-11-25', 0)),
    expected: { status: 200, code: null, id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: SERVER_INFO } },
  },
  {
    name: 'legacy profile: initialize without params',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(null), '{"jsonrpc":"2.0","id":0,"method":"initialize"}'),
    expected: err(400, -32602, 0),
  },
  {
    name: 'legacy profile: initialized notification',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(LEGACY), '{"jsonrpc":"2.0","method":"notifications/initialized"}'),
    expected: empty(202),
  },
  {
    name: 'legacy profile: ping',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(LEGACY), '{"jsonrpc":"2.0","id":"p","method":"ping"}'),
    expected: { status: 200, code: null, id: 'p', result: {} },
  },
  {
    name: 'legacy profile: ping without the version header',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(null), '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
    expected: err(400, -32600, 1),
  },
  {
    name: 'legacy profile: ping naming another legacy version',
    profile: 'legacy',
    request: post(LEGACY_HEADERS('2025-11-25'), '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
    expected: err(400, -32022, 1, { supported: [PROTOCOL, LEGACY], requested: '2025-11-25' }),
  },
  ...['resources/list', 'resources/templates/list', 'tools/list'].map(
    (m, i): OutcomeRow => ({
      name: `legacy profile: ${m} with nothing declared`,
      profile: 'legacy',
      request: post(LEGACY_HEADERS(LEGACY), JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: m })),
      // As on the modern profile; Codex's resources probes go on to its tools (npm run qualify).
      expected: err(404, -32601, i + 1),
    }),
  ),
  {
    name: 'legacy profile: modern discover unchanged',
    profile: 'legacy',
    request: modernPost(DISCOVER, discoverBody(1)),
    expected: ok(1),
  },
  {
    name: 'legacy profile: a modern revision error lists both revisions',
    profile: 'legacy',
    request: post(withHeader(D, 'mcp-protocol-version', '2099-01-01'), envelope(DISCOVER, 1, metaWith({ ...META, [PV]: '2099-01-01' }))),
    expected: err(400, -32022, 1, { supported: [PROTOCOL, LEGACY], requested: '2099-01-01' }),
  },
  {
    name: 'legacy profile: a modern header is never downgraded',
    profile: 'legacy',
    request: post([...LEGACY_HEADERS(LEGACY), ['mcp-method', 'initialize']], '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}'),
    expected: err(400, -32602, 0),
  },
  {
    name: 'legacy profile: a modern _meta is never downgraded',
    profile: 'legacy',
    request: post(LEGACY_HEADERS(LEGACY), envelope('ping', 1)),
    expected: err(400, -32020, 1),
  },
  {
    name: 'legacy profile: modern initialize stays removed',
    profile: 'legacy',
    request: modernPost('initialize', envelope('initialize', 1)),
    expected: err(404, -32601, 1),
  },
];
