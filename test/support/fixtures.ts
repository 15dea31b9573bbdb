// Shared request builders and handler profiles, written from the documented outcomes, not from the code.

export const PROTOCOL = '2026-07-28';
export const CANARY = 'CANARY-7f3a9e'; // put into inputs; fixed error messages must never contain it
export const SERVER_INFO = { name: 'pulse-test', version: '1.2.3' };

export type Id = string | number;

export const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: CANARY, version: '0.0.1' },
};

/** The handler option sets the table rows choose from. */
export const PROFILES = {
  default: { serverInfo: SERVER_INFO },
  origins: { serverInfo: SERVER_INFO, allowedOrigins: ['https://app.example'] },
  cors: { serverInfo: SERVER_INFO, allowedOrigins: ['https://app.example'], cors: true },
  small: {
    serverInfo: SERVER_INFO,
    limits: { requestBytes: 1024, responseBytes: 1536, depth: 32, deadlineMs: 10000 },
  },
  shallow: { serverInfo: SERVER_INFO, limits: { depth: 8 } },
  slow: { serverInfo: SERVER_INFO, limits: { deadlineMs: 300 } },
  legacy: { serverInfo: SERVER_INFO, legacyProtocol: '2025-06-18' },
} as const;
export type ProfileName = keyof typeof PROFILES;

export const ACCEPT: [string, string] = ['accept', 'application/json, text/event-stream'];
export const CT: [string, string] = ['content-type', 'application/json'];

/** Accept + Content-Type + the modern headers for `method` (and Mcp-Name when given). */
export function modernHeaders(method: string, name?: string): [string, string][] {
  const h: [string, string][] = [ACCEPT, CT, ['mcp-protocol-version', PROTOCOL], ['mcp-method', method]];
  if (name !== undefined) h.push(['mcp-name', name]);
  return h;
}

/** Pass as `params` to leave the member out. */
export const OMIT = Symbol('omit');

export function envelope(method: string, id: Id | undefined, params: unknown = { _meta: META }): string {
  const o: Record<string, unknown> = { jsonrpc: '2.0' };
  if (id !== undefined) o.id = id;
  o.method = method;
  if (params !== OMIT) o.params = params;
  return JSON.stringify(o);
}

/** The exact discover result the default profile must return. */
export const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: [PROTOCOL],
  capabilities: {},
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
};

/** `n` nested arrays around `inner`. */
export function nest(n: number, inner = '0'): string {
  return '['.repeat(n) + inner + ']'.repeat(n);
}

/**
 * A discover request whose `_meta` carries an extra (allowed) key holding `value` verbatim.
 * Nesting of `value` starts at level 4 (root object 1, params 2, _meta 3).
 */
export function discoverWith(valueText: string, id: Id = 1): string {
  const meta = JSON.stringify(META).slice(0, -1);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"server/discover","params":{"_meta":${meta},"org.example/x":${valueText}}}}`;
}
export const DISCOVER_WITH_OFFSET = 3;

/** Base64 sentinel form used by `Mcp-Name` for values that are not plain visible ASCII. */
export function b64name(s: string): string {
  return `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

export const te = new TextEncoder();
export const bytes = (s: string): Uint8Array => te.encode(s);
