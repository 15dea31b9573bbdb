/**
 * The differential run's cases for one service, generated from what it declares: per operation,
 * valid and invalid `tools/call`s from its inputSchema (./inputs) and a call without arguments where
 * none is required; discovery, `tools/list` and an undeclared tool; and the admission rules of the
 * binding at its own limits (method, path, Origin, body size at and one past the request limit,
 * nesting at and one past the depth limit, malformed JSON, media types, the MCP headers, a
 * notification, a batch). Requests are the 2026-07-28 shapes: the standard headers on every POST
 * and the `_meta` envelope in every params.
 */
import { PROTOCOL_VERSION } from '../../protocol';
import type { WireRequest } from './http';
import { invalidInputs, UnsupportedSchema, validInputs } from './inputs';

export interface DiffCase {
  readonly name: string;
  readonly request: WireRequest;
  /** The declared operation a `tools/call` case names: what the evidence counts. */
  readonly operation?: string;
}

/** A declared operation as `tools/list` publishes it. */
export interface DeclaredOperation {
  readonly name: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** Where the service answers and the admission limits the cases are built at. */
export interface Admission {
  /** The endpoint's exact path. */
  readonly path: string;
  readonly requestBytes: number;
  readonly depth: number;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'pulse-mcp-diff', version: '1.0.0' },
};
/** Levels above a value placed in `_meta`: the root object, params, _meta. */
const META_LEVELS = 3;
const ACCEPT: [string, string] = ['accept', 'application/json, text/event-stream'];
const JSON_TYPE: [string, string] = ['content-type', 'application/json'];
/** Never an admitted origin: `.invalid` cannot be registered (RFC 6761). */
const ORIGIN = 'https://pulse-mcp-diff.invalid';

/** A header value as MCP sends it: plain visible ASCII as is, anything else in the base64 sentinel. */
function headerValue(v: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v) && !/^=\?base64\?.*\?=$/.test(v);
  return plain ? v : `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

function headers(method: string, name?: string): [string, string][] {
  const h: [string, string][] = [ACCEPT, JSON_TYPE, ['mcp-protocol-version', PROTOCOL_VERSION], ['mcp-method', method]];
  if (name !== undefined) h.push(['mcp-name', headerValue(name)]);
  return h;
}

function envelope(method: string, id: number | undefined, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params: { ...params, _meta: META } });
}

const post = (path: string, h: readonly (readonly [string, string])[], body: string): WireRequest => ({ method: 'POST', path, headers: h, body: Buffer.from(body, 'utf8') });

/** The `tools/list` request, whose answer lists the operations and their inputSchemas. */
export function toolsListRequest(path: string): WireRequest {
  return post(path, headers('tools/list'), envelope('tools/list', 1));
}

/**
 * `Mcp-Param-*` headers mirroring the arguments whose property declares `x-mcp-header`: a string
 * as is, a number in decimal, a boolean as true/false; absent or null, none.
 */
function paramHeaders(schema: Readonly<Record<string, unknown>>, args: unknown): [string, string][] {
  const props = schema.properties;
  if (typeof props !== 'object' || props === null || typeof args !== 'object' || args === null || Array.isArray(args)) return [];
  const out: [string, string][] = [];
  for (const [field, p] of Object.entries(props as Record<string, Record<string, unknown>>)) {
    const header = p?.['x-mcp-header'];
    const v = (args as Record<string, unknown>)[field];
    if (typeof header !== 'string' || !Object.prototype.hasOwnProperty.call(args, field)) continue;
    if (typeof v === 'string') out.push([`mcp-param-${header}`, headerValue(v)]);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push([`mcp-param-${header}`, String(v)]);
  }
  return out;
}

/** Every case for a service declaring `operations`, served at `admission.path` and admitted at its limits. */
export function diffCases(operations: readonly DeclaredOperation[], admission: Admission): DiffCase[] {
  const { path, requestBytes, depth } = admission;
  const at = (h: readonly (readonly [string, string])[], body: string) => post(path, h, body);
  let id = 0;
  const cases: DiffCase[] = [];
  const add = (name: string, request: WireRequest, operation?: string) => cases.push({ name, request, ...(operation === undefined ? {} : { operation }) });
  const call = (op: DeclaredOperation, what: string, args: unknown | undefined) => {
    const params = args === undefined ? { name: op.name } : { name: op.name, arguments: args };
    add(`tools/call ${op.name}: ${what}`, at([...headers('tools/call', op.name), ...paramHeaders(op.inputSchema, args)], envelope('tools/call', ++id, params)), op.name);
  };

  add('server/discover', at(headers('server/discover'), envelope('server/discover', ++id)));
  add('tools/list', at(headers('tools/list'), envelope('tools/list', ++id)));
  for (const op of operations) {
    let valid, invalid;
    try {
      valid = validInputs(op.inputSchema);
      invalid = invalidInputs(op.inputSchema);
    } catch (e) {
      if (e instanceof UnsupportedSchema) throw new UnsupportedSchema(`the inputSchema of ${op.name} has ${e.message}`);
      throw e;
    }
    for (const v of valid) call(op, `valid, ${v.label}`, v.value);
    const required = op.inputSchema.required;
    if (!Array.isArray(required) || required.length === 0) call(op, 'no arguments', undefined);
    for (const v of invalid) call(op, `invalid, ${v.label}`, v.value);
  }
  let unknown = 'pulse_mcp_diff_undeclared';
  while (operations.some((o) => o.name === unknown)) unknown += '_';
  add(`tools/call of an undeclared tool (${unknown})`, at(headers('tools/call', unknown), envelope('tools/call', ++id, { name: unknown, arguments: {} })));

  const discover = () => envelope('server/discover', ++id);
  add(`GET ${path}`, { method: 'GET', path, headers: [ACCEPT] });
  add(`POST to another path (${path}/)`, post(`${path}/`, headers('server/discover'), discover()));
  add(`an Origin header (${ORIGIN})`, at([...headers('server/discover'), ['origin', ORIGIN]], discover()));
  // A discover request padded with whitespace to `bytes` (whitespace alone below its own length).
  const padded = (bytes: number) => {
    const body = discover();
    return Buffer.byteLength(body) <= bytes ? body + ' '.repeat(bytes - Buffer.byteLength(body)) : ' '.repeat(bytes);
  };
  add(`a body of exactly the request limit (${requestBytes} bytes)`, at(headers('server/discover'), padded(requestBytes)));
  add(`a body 1 byte over the request limit (${requestBytes + 1} bytes)`, at(headers('server/discover'), padded(requestBytes + 1)));
  const nested = (levels: number) => {
    const inner = Math.max(0, levels - META_LEVELS);
    const meta = { ...META, 'org.example/nested': '\u0000' };
    return JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'server/discover', params: { _meta: meta } }).replace('"\\u0000"', '['.repeat(inner) + '0' + ']'.repeat(inner));
  };
  add(`JSON nested to the depth limit (${depth} levels)`, at(headers('server/discover'), nested(depth)));
  add(`JSON nested 1 level past the depth limit (${depth + 1} levels)`, at(headers('server/discover'), nested(depth + 1)));
  add('malformed JSON', at(headers('server/discover'), '{"jsonrpc":"2.0","id":1,"method":'));
  add('Content-Type text/plain', at([ACCEPT, ['content-type', 'text/plain'], ...headers('server/discover').slice(2)], discover()));
  add('Accept without application/json', at([['accept', 'text/event-stream'], ...headers('server/discover').slice(1)], discover()));
  add('no MCP-Protocol-Version and Mcp-Method headers', at([ACCEPT, JSON_TYPE], discover()));
  add('a notification (notifications/cancelled)', at(headers('notifications/cancelled'), envelope('notifications/cancelled', undefined, { requestId: 1 })));
  add('a batch of one discover request', at(headers('server/discover'), `[${discover()}]`));
  return cases;
}
