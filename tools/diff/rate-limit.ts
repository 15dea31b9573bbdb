/**
 * The differential run's rate-limit rows (`rateLimit`, docs/rate-limits.md). A limit is state, so
 * these are sequences: each is sent step by step, in order, to a fresh server of every target (its
 * counts start at zero), from loopback client addresses of its own choosing (Linux routes all of
 * 127.0.0.0/8 to loopback, so the TCP peer is the address a step names), and every step is held to
 * its exact answer. Viceroy's Edge Rate Limiting hostcalls are stubs that never count: there each
 * step gets the answer it would get without a limit (`viceroy`, given wherever it differs) and the
 * hostcalls the Native service makes for it (`erl`), read from Viceroy's trace.
 * The profiles are the catalog and authorization profiles with small budgets and 10-second
 * windows; the issuer (origin.mjs) counts the introspections of each token, so a step can say how
 * often its token was asked about. And the configuration refusals, the same on every target.
 */
import type { OutcomeRequest } from '../../spec/outcomes.rows';
import { envelope, META, modernHeaders } from '../../test/support/fixtures';
import type { OriginGrant } from './origin.mjs';
import { options as catalog } from './catalog-router';
import * as authz from './authz-profile';

/** The window every budget here counts over, in seconds (the shortest Fastly counts). */
export const WINDOW_S = 10;

// The default deadline, not the catalog profile's 1 s (which its slow tool runs into): a row's
// answer must not depend on how busy the machine is while the other rows start their servers.
const { limits: _catalogLimits, ...calls } = catalog;
const { limits: _authzLimits, ...authorized } = authz.options;

export const RATE_LIMIT_PROFILES: Readonly<Record<string, Record<string, unknown>>> = {
  // Per client address; `nothing` has a budget of its own, with a two-minute penalty.
  'rl-calls': { ...calls, rateLimit: { toolCalls: { limit: 2, window: WINDOW_S, tools: { nothing: { limit: 1, penaltyMinutes: 2 } } } } },
  // Per client address, before authorization.
  'rl-address': { ...authorized, rateLimit: { requests: { limit: 2, window: WINDOW_S } } },
  // Per authorized caller: its sub.
  'rl-caller': { ...authorized, rateLimit: { toolCalls: { limit: 1, window: WINDOW_S } } },
};

/** The client addresses the steps come from. */
export type Address = '127.0.0.2' | '127.0.0.3';

/** A step's whole answer: the fields the run compares (no answer here carries `Allow`), `Retry-After`, and the issuer's count. */
export interface Answer {
  readonly status: number;
  /** `Retry-After`; null: absent. */
  readonly retryAfter: string | null;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly wwwAuthenticate: string;
  readonly body: string;
  /** How often the issuer was asked about the step's token while the step was served (steps with a token). */
  readonly asked?: number;
}

export interface Step {
  readonly from: Address;
  /** A name of the sequence's `tokens`, or any other name: a token the issuer does not know. */
  readonly token?: string;
  readonly request: OutcomeRequest;
  /** Waited before the step is sent, after the previous step's answer. */
  readonly waitMs?: number;
  readonly expect: Answer;
  /** Viceroy's answer, whose rate counters never count: given exactly where a counting target limits. */
  readonly viceroy?: Answer;
  /**
   * What the Native service asks the host for this step, as Viceroy's trace shows it: `client`
   * (the downstream client address), `has` (penaltybox_has), `increment` (ratecounter_increment by
   * one), `count <seconds>` (ratecounter_lookup_count over that window), `add` (penaltybox_add).
   */
  readonly erl: readonly string[];
}

export interface Sequence {
  readonly name: string;
  readonly profile: string;
  /** The tokens the issuer grants in this sequence: name → scopes and sub. */
  readonly tokens?: Readonly<Record<string, { readonly scope: string; readonly sub: string }>>;
  readonly steps: readonly Step[];
}

const ID_LESS = undefined;
const post = (headers: [string, string][], body: string): OutcomeRequest => ({ method: 'POST', path: '/mcp', headers, body });
const call = (name: string, id: number | undefined, args: unknown = {}) => post(modernHeaders('tools/call', name), envelope('tools/call', id, { name, arguments: args, _meta: META }));
const discover = (id: number) => post(modernHeaders('server/discover'), envelope('server/discover', id));
const METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

const serverInfo = (name: string) => ({ 'io.modelcontextprotocol/serverInfo': { name, version: '0.0.1' } });
const CATALOG = 'pulse-diff-catalog';
const AUTHZ = 'pulse-diff-authz';
/** `echo`'s result for `{ q }` (the origin echoes it). */
const echoed = (server: string, id: number, q: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify({ q }) }], structuredContent: { q }, isError: false, _meta: serverInfo(server) } });
/** `nothing`'s result (no output). */
const nothing = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'null' }], isError: false, _meta: serverInfo(CATALOG) } });
const discovered = (server: string, id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: false } }, ttlMs: 0, cacheScope: 'private', _meta: serverInfo(server) } });
/** The JSON-RPC error of a limited request: with its id, or none when refused before the body. */
const limitedBody = (minutes: number, id: number | null) => JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), error: { code: -32023, message: 'Rate limited', data: { retryAfterMs: minutes * 60_000 } } });
const UNKNOWN_TOOL = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } });
const INVALID_TOKEN = '{"error":"invalid_token","error_description":"The access token is invalid or expired"}';
const INSUFFICIENT_SCOPE = '{"error":"insufficient_scope","error_description":"The access token lacks a required scope"}';
const METADATA = JSON.stringify({ resource: authz.RESOURCE, authorization_servers: [authz.ISSUER], scopes_supported: ['mcp:access'], bearer_methods_supported: ['header'] });

/** An answer with a JSON body, or none (content-type absent); every answer here is `no-store`. */
const answer = (status: number, body: string, asked?: number, wwwAuthenticate = ''): Answer => ({
  status,
  retryAfter: null,
  contentType: body === '' ? '' : 'application/json',
  cacheControl: 'no-store',
  wwwAuthenticate,
  body,
  ...(asked === undefined ? {} : { asked }),
});
const ok = (body: string, asked?: number): Answer => answer(200, body, asked);
const METADATA_URL = `${new URL(authz.RESOURCE).origin}${METADATA_PATH}`;
const INVALID_CHALLENGE = `Bearer error="invalid_token", resource_metadata="${METADATA_URL}", scope="mcp:access", error_description="The access token is invalid or expired"`;
const SCOPE_CHALLENGE = `Bearer error="insufficient_scope", scope="mcp:access echo:call", resource_metadata="${METADATA_URL}", error_description="The access token lacks a required scope"`;
const invalidToken = (asked: number) => answer(401, INVALID_TOKEN, asked, INVALID_CHALLENGE);
const insufficientScope = (asked: number) => answer(403, INSUFFICIENT_SCOPE, asked, SCOPE_CHALLENGE);
const limited = (minutes: number, id: number | null, asked?: number): Answer => ({ ...answer(429, limitedBody(minutes, id), asked), retryAfter: String(minutes * 60) });
/** A notification refused while its caller is in the penalty box: no body. */
const limitedNote = (minutes: number): Answer => ({ ...answer(429, ''), retryAfter: String(minutes * 60) });

/** The hostcalls of one budget: a charge looks into the penalty box, counts and looks up the count; a look only looks. */
const charge = (windowS: number) => ['has', 'increment', `count ${windowS}`];
const look = ['has'];

const A: Address = '127.0.0.2';
const B: Address = '127.0.0.3';

export const SEQUENCES: readonly Sequence[] = [
  {
    name: "rate limit: under, at and one past a client's limit; two addresses are counted apart",
    profile: 'rl-calls',
    steps: [
      { from: A, request: call('echo', 1, { q: 'a' }), expect: ok(echoed(CATALOG, 1, 'a')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 2, { q: 'a' }), expect: ok(echoed(CATALOG, 2, 'a')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 3, { q: 'a' }), expect: limited(1, 3), viceroy: ok(echoed(CATALOG, 3, 'a')), erl: ['client', ...charge(10)] },
      // In the penalty box: refused without being counted.
      { from: A, request: call('echo', 4, { q: 'a' }), expect: limited(1, 4), viceroy: ok(echoed(CATALOG, 4, 'a')), erl: ['client', ...charge(10)] },
      // Only tool calls are charged to the caller's budget.
      { from: A, request: discover(5), expect: ok(discovered(CATALOG, 5)), erl: ['client'] },
      { from: B, request: call('echo', 6, { q: 'b' }), expect: ok(echoed(CATALOG, 6, 'b')), erl: ['client', ...charge(10)] },
      // A tool with a budget of its own is counted apart, with its own penalty.
      { from: B, request: call('nothing', 7), expect: ok(nothing(7)), erl: ['client', ...charge(60)] },
      { from: B, request: call('nothing', 8), expect: limited(2, 8), viceroy: ok(nothing(8)), erl: ['client', ...charge(60)] },
      { from: B, request: call('echo', 9, { q: 'b' }), expect: ok(echoed(CATALOG, 9, 'b')), erl: ['client', ...charge(10)] },
    ],
  },
  {
    name: 'rate limit: a notification is never charged, and refused without a body over the limit; an unknown tool is not charged',
    profile: 'rl-calls',
    steps: [
      { from: A, request: call('echo', ID_LESS, { q: 'n' }), expect: answer(202, ''), erl: ['client', ...look] },
      { from: A, request: call('echo', ID_LESS, { q: 'n' }), expect: answer(202, ''), erl: ['client', ...look] },
      { from: A, request: call('echo', ID_LESS, { q: 'n' }), expect: answer(202, ''), erl: ['client', ...look] },
      { from: A, request: call('absent', 1), expect: answer(400, UNKNOWN_TOOL(1)), erl: ['client'] },
      { from: A, request: call('echo', 2, { q: 'n' }), expect: ok(echoed(CATALOG, 2, 'n')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 3, { q: 'n' }), expect: ok(echoed(CATALOG, 3, 'n')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 4, { q: 'n' }), expect: limited(1, 4), viceroy: ok(echoed(CATALOG, 4, 'n')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', ID_LESS, { q: 'n' }), expect: limitedNote(1), viceroy: answer(202, ''), erl: ['client', ...look] },
    ],
  },
  {
    name: 'rate limit: the window rolls over',
    profile: 'rl-calls',
    steps: [
      { from: A, request: call('echo', 1, { q: 'w' }), expect: ok(echoed(CATALOG, 1, 'w')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 2, { q: 'w' }), expect: ok(echoed(CATALOG, 2, 'w')), erl: ['client', ...charge(10)] },
      // A whole window after the last charge, every earlier charge is out of it.
      { from: A, waitMs: WINDOW_S * 1000 + 200, request: call('echo', 3, { q: 'w' }), expect: ok(echoed(CATALOG, 3, 'w')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 4, { q: 'w' }), expect: ok(echoed(CATALOG, 4, 'w')), erl: ['client', ...charge(10)] },
      { from: A, request: call('echo', 5, { q: 'w' }), expect: limited(1, 5), viceroy: ok(echoed(CATALOG, 5, 'w')), erl: ['client', ...charge(10)] },
    ],
  },
  {
    name: 'rate limit: the address budget refuses unknown tokens before any introspection',
    profile: 'rl-address',
    tokens: { known: { scope: 'mcp:access echo:call', sub: 'rl-known' } },
    steps: [
      { from: A, token: 'unknown-1', request: discover(1), expect: invalidToken(1), erl: ['client', ...charge(10)] },
      { from: A, token: 'unknown-2', request: discover(2), expect: invalidToken(1), erl: ['client', ...charge(10)] },
      // Refused before the body is read: the error has no id; the issuer is not asked.
      { from: A, token: 'unknown-3', request: discover(3), expect: limited(1, null, 0), viceroy: invalidToken(1), erl: ['client', ...charge(10)] },
      { from: A, token: 'known', request: discover(4), expect: limited(1, null, 0), viceroy: ok(discovered(AUTHZ, 4), 1), erl: ['client', ...charge(10)] },
      // The protected-resource metadata is never counted.
      { from: A, request: { method: 'GET', path: METADATA_PATH, headers: [] }, expect: ok(METADATA), erl: ['client'] },
      { from: B, token: 'known', request: discover(5), expect: ok(discovered(AUTHZ, 5), 1), erl: ['client', ...charge(10)] },
    ],
  },
  {
    name: 'rate limit: an authorized caller is its sub; a 401 or 403 is not charged; two subs are apart',
    profile: 'rl-caller',
    tokens: {
      'u1-scoped': { scope: 'mcp:access echo:call', sub: 'rl-u1' },
      'u1-base': { scope: 'mcp:access', sub: 'rl-u1' },
      'u2-scoped': { scope: 'mcp:access echo:call', sub: 'rl-u2' },
    },
    steps: [
      // u1 without echo's scope: refused, never charged to u1.
      { from: A, token: 'u1-base', request: call('echo', 1, { q: 'u' }), expect: insufficientScope(1), erl: [] },
      { from: A, token: 'u1-base', request: call('echo', 2, { q: 'u' }), expect: insufficientScope(1), erl: [] },
      { from: A, token: 'inactive', request: call('echo', 3, { q: 'u' }), expect: invalidToken(1), erl: [] },
      { from: A, token: 'u1-scoped', request: call('echo', 4, { q: 'u' }), expect: ok(echoed(AUTHZ, 4, 'u'), 1), erl: charge(10) },
      // The same sub from another address is the same caller.
      { from: B, token: 'u1-scoped', request: call('echo', 5, { q: 'u' }), expect: limited(1, 5, 1), viceroy: ok(echoed(AUTHZ, 5, 'u'), 1), erl: charge(10) },
      { from: A, token: 'u2-scoped', request: call('echo', 6, { q: 'u' }), expect: ok(echoed(AUTHZ, 6, 'u'), 1), erl: charge(10) },
    ],
  },
];

/** The token a step of `sequence` sends to `target`: one per target, so each target's introspections are counted apart. */
export function wireToken(sequence: number, name: string, target: string): string {
  return `rl${sequence}.${name}.${target}`;
}

/** Every token the issuer grants for the sequences, on every target. */
export function originTokens(targets: readonly string[]): Record<string, OriginGrant> {
  const out: Record<string, OriginGrant> = {};
  SEQUENCES.forEach((s, i) => {
    for (const [name, grant] of Object.entries(s.tokens ?? {})) for (const t of targets) out[wireToken(i, name, t)] = grant;
  });
  return out;
}

/** A bad `rateLimit`, refused with the core's message by every host and by the Native build. */
export interface Refusal {
  readonly name: string;
  readonly rateLimit: unknown;
  /** `jsonrpc`: the engine configuration of the backend profile (the options of the hosts take no profile). */
  readonly profile?: 'jsonrpc';
  readonly message: string;
}

export const REFUSALS: readonly Refusal[] = [
  { name: 'a limit of 0', rateLimit: { requests: { limit: 0 } }, message: 'rateLimit.requests.limit: must be an integer from 1 to 1000000' },
  { name: 'a window of 15 s', rateLimit: { toolCalls: { limit: 5, window: 15 } }, message: 'rateLimit.toolCalls.window: must be one of 10, 20, 30, 40, 50 or 60 seconds' },
  { name: 'a budget for an undeclared tool', rateLimit: { toolCalls: { limit: 5, tools: { absent: { limit: 1 } } } }, message: 'rateLimit.toolCalls.tools: names a tool the router does not declare' },
  { name: 'no budget', rateLimit: {}, message: 'rateLimit: names no budget; give requests, toolCalls or both' },
  {
    name: 'beside the jsonrpc profile',
    rateLimit: { requests: { limit: 5 } },
    profile: 'jsonrpc',
    message: 'profile: "jsonrpc" is a backend\'s endpoint; rate limits belong to the MCP host in front of it',
  },
];

/** The options a refusal row gives a host: the catalog profile's with the bad `rateLimit`. */
export function refusedOptions(r: Refusal): Record<string, unknown> {
  return { ...catalog, rateLimit: r.rateLimit };
}

/** The engine configuration of a refusal row from its resolved options: with the profile member when it names one. */
export function refusedConfig(r: Refusal, configJson: string): string {
  return r.profile === undefined ? configJson : `{"profile":${JSON.stringify(r.profile)},${configJson.slice(1)}`;
}
