// OAuth resource-server admission, every outcome row, against a real authorization server
// (oidc-provider, examples/oauth/issuer.mjs) over TCP: tokens come from its authorization-code flow
// with PKCE and the resource indicator, the host introspects them at its endpoint. A scripted
// issuer covers what a real one will not do (slow, oversized, redirecting, malformed). Both hosts
// (Node over TCP, Fetch in process), both profiles. Each row asserts status, challenge and body,
// and how many requests the governed backend received: none unless authorization succeeded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { codec, EntityRouter } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
// @ts-expect-error: plain ESM modules of the example, without declarations
import { startIssuer } from '../../examples/oauth/issuer.mjs';
// @ts-expect-error: as above
import { accessToken, revoke } from '../../examples/oauth/flow.mjs';
import { CANARY, META, modernHeaders, ACCEPT, CT } from '../support/fixtures';
import { fetchHandler, startNode, type RunningServer } from '../support/hosts';

const RESOURCE = 'https://mcp.pulse.test/mcp';
const METADATA = 'https://mcp.pulse.test/.well-known/oauth-protected-resource/mcp';
const SERVICE_TOKEN = 'svc-token.Backend_2';

const router = new EntityRouter('notes')
  .operation('status', { description: 'Baseline access', handler: () => undefined })
  .operation('read', { description: 'Needs notes:read', input: codec.object({ id: codec.string({ maxLength: 8 }) }), output: codec.object({ text: codec.string({ maxLength: 64 }) }), handler: () => ({ text: '' }) })
  .operation('write', { description: 'Needs notes:write', input: codec.object({ id: codec.string({ maxLength: 8 }) }), handler: () => undefined })
  .operation('clear', { description: 'Mapped by no policy: never callable', handler: () => undefined });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));

let issuer: { url: string; rsClient: { id: string; secret: string }; close(): Promise<void> };
let backend: http.Server;
let endpoint: string;
const hits: http.IncomingHttpHeaders[] = [];
const tokens: Record<string, string> = {};

let scripted: http.Server;
let scriptedUrl: string;
let trapHits = 0;
let trap: http.Server;
type Misbehaviour = 'slow' | 'oversized' | 'redirect' | 'malformed' | 'error' | 'not_boolean';
let misbehaviour: Misbehaviour = 'slow';

beforeAll(async () => {
  issuer = await startIssuer({ resource: RESOURCE, redirectUris: ['http://127.0.0.1:1/callback'] });
  for (const [name, scope] of Object.entries({ base: 'mcp:access', reader: 'mcp:access notes:read', all: 'mcp:access notes:read notes:write', nobase: 'notes:read', revoked: 'mcp:access' })) {
    tokens[name] = await accessToken({ issuer: issuer.url, resource: RESOURCE, scope });
  }
  await revoke({ issuer: issuer.url, token: tokens.revoked });
  backend = http.createServer((req, res) => {
    hits.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":null}'));
  });
  trap = http.createServer((_, res) => {
    trapHits++;
    res.end('{"active":true}');
  });
  scripted = http.createServer((req, res) => {
    req.resume();
    const json = (text: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    switch (misbehaviour) {
      case 'slow':
        setTimeout(() => json('{"active":false}'), 3_600).unref();
        return;
      case 'oversized':
        return json(`{"active":false,"pad":"${'x'.repeat(17_000)}"}`);
      case 'redirect':
        res.writeHead(307, { location: `http://127.0.0.1:${(trap.address() as AddressInfo).port}/` }).end();
        return;
      case 'malformed':
        return json(`<html>${CANARY}</html>`);
      case 'error':
        res.writeHead(500).end(CANARY);
        return;
      case 'not_boolean':
        return json('{"active":"true"}');
    }
  });
  for (const s of [backend, trap, scripted]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/rpc`;
  scriptedUrl = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  for (const s of [backend, trap, scripted]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await issuer?.close();
});

function options(legacy: boolean, at?: { issuer: string; deadlineMs?: number; cache?: { maxAgeMs: number } }) {
  const iss = at?.issuer ?? issuer.url;
  return {
    ...(legacy ? { legacyProtocol: '2025-06-18' } : {}),
    ...(at?.deadlineMs === undefined ? {} : { limits: { deadlineMs: at.deadlineMs } }),
    tools: { catalog, schemas: schemaRegistry, routerId: 'notes', target: 'node-javascript', endpoint, backendBearerToken: SERVICE_TOKEN },
    authorization: {
      resource: RESOURCE,
      issuer: iss,
      introspectionEndpoint: `${iss}/token/introspection`,
      clientId: issuer.rsClient.id,
      clientSecret: issuer.rsClient.secret,
      scopes: ['mcp:access'],
      operations: { status: [], read: ['notes:read'], write: ['notes:write'] },
      allowInsecureLoopback: true,
      ...(at?.cache === undefined ? {} : { cache: at.cache }),
    },
  };
}

type Send = (body: string, headers: [string, string][], query?: string) => Promise<{ status: number; text: string; challenge: string | null }>;

function sender(host: 'node' | 'fetch', opts: unknown, servers: RunningServer[]): () => Promise<Send> {
  return async () => {
    if (host === 'node') {
      const server = await startNode(opts);
      servers.push(server);
      return async (body, headers, query = '') => {
        const r = await fetch(`http://127.0.0.1:${server.port}/mcp${query}`, { method: 'POST', headers, body });
        return { status: r.status, text: await r.text(), challenge: r.headers.get('www-authenticate') };
      };
    }
    const h = fetchHandler(opts);
    return async (body, headers, query = '') => {
      const r = await h.fetch(new Request(`http://127.0.0.1/mcp${query}`, { method: 'POST', headers, body }));
      return { status: r.status, text: await r.text(), challenge: r.headers.get('www-authenticate') };
    };
  };
}

type Token = keyof typeof tokens | 'none' | 'garbage' | 'basic' | 'long';
interface Row {
  name: string;
  method: 'tools/list' | 'tools/call' | 'notification';
  tool?: string;
  token: Token;
  query?: string;
  status: number;
  /** Exact WWW-Authenticate, or null for none. */
  challenge: string | null;
  /** OAuth error code of the body (`undefined`: a JSON-RPC reply). */
  error?: string | null;
  /** Tool names `tools/list` shows. */
  listed?: string[];
  backendCalls: 0 | 1;
}

const MISSING = `Bearer resource_metadata="${METADATA}", scope="mcp:access"`;
const INVALID = `Bearer error="invalid_token", resource_metadata="${METADATA}", scope="mcp:access", error_description="The access token is invalid or expired"`;
const insufficient = (scope: string) => `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${METADATA}", error_description="The access token lacks a required scope"`;
const QUERY = `Bearer error="invalid_request", resource_metadata="${METADATA}", error_description="The access token must be sent in the Authorization header"`;

const ROWS: Row[] = [
  { name: 'missing credentials: 401, challenge with resource_metadata and the baseline scope', method: 'tools/list', token: 'none', status: 401, challenge: MISSING, error: null, backendCalls: 0 },
  { name: 'a notification authenticates too', method: 'notification', token: 'none', status: 401, challenge: MISSING, error: null, backendCalls: 0 },
  { name: 'another scheme counts as no credentials', method: 'tools/list', token: 'basic', status: 401, challenge: MISSING, error: null, backendCalls: 0 },
  { name: 'a token the issuer does not know: 401 invalid_token', method: 'tools/list', token: 'garbage', status: 401, challenge: INVALID, error: 'invalid_token', backendCalls: 0 },
  { name: 'a revoked token: 401 invalid_token', method: 'tools/call', tool: 'status', token: 'revoked', status: 401, challenge: INVALID, error: 'invalid_token', backendCalls: 0 },
  { name: 'a token over 8192 characters: 401 invalid_token', method: 'tools/list', token: 'long', status: 401, challenge: INVALID, error: 'invalid_token', backendCalls: 0 },
  { name: 'a token in the query string: 400 invalid_request', method: 'tools/list', token: 'base', query: '?access_token=abc', status: 400, challenge: QUERY, error: 'invalid_request', backendCalls: 0 },
  { name: 'a token without the baseline scope: 403 insufficient_scope', method: 'tools/list', token: 'nobase', status: 403, challenge: insufficient('mcp:access'), error: 'insufficient_scope', backendCalls: 0 },
  { name: 'baseline access lists the baseline operations only', method: 'tools/list', token: 'base', status: 200, challenge: null, listed: ['status'], backendCalls: 0 },
  { name: 'a reader lists what reading permits', method: 'tools/list', token: 'reader', status: 200, challenge: null, listed: ['status', 'read'], backendCalls: 0 },
  { name: 'every scope still does not list an unmapped operation', method: 'tools/list', token: 'all', status: 200, challenge: null, listed: ['status', 'read', 'write'], backendCalls: 0 },
  { name: 'a baseline operation with the baseline: performed once', method: 'tools/call', tool: 'status', token: 'base', status: 200, challenge: null, backendCalls: 1 },
  { name: 'an operation scope missing: 403 with the union of required scopes, no backend call', method: 'tools/call', tool: 'read', token: 'base', status: 403, challenge: insufficient('mcp:access notes:read'), error: 'insufficient_scope', backendCalls: 0 },
  { name: 'a writer scope missing: 403, no backend call', method: 'tools/call', tool: 'write', token: 'reader', status: 403, challenge: insufficient('mcp:access notes:write'), error: 'insufficient_scope', backendCalls: 0 },
  { name: 'the operation scope present: performed once', method: 'tools/call', tool: 'write', token: 'all', status: 200, challenge: null, backendCalls: 1 },
  { name: 'an unmapped operation: 403 default deny whatever the scopes', method: 'tools/call', tool: 'clear', token: 'all', status: 403, challenge: null, error: 'access_denied', backendCalls: 0 },
  { name: 'an unknown operation: 403 default deny', method: 'tools/call', tool: 'nope', token: 'all', status: 403, challenge: null, error: 'access_denied', backendCalls: 0 },
];

function request(legacy: boolean, row: { method: Row['method']; tool?: string }, id: number): { body: string; headers: [string, string][] } {
  const method = row.method === 'notification' ? 'notifications/initialized' : row.method;
  const params: Record<string, unknown> = row.method === 'tools/call' ? { name: row.tool, arguments: row.tool === 'read' || row.tool === 'write' ? { id: 'a' } : {} } : {};
  if (!legacy) params._meta = META;
  const o: Record<string, unknown> = { jsonrpc: '2.0', method, params };
  if (row.method !== 'notification') o.id = id;
  const headers: [string, string][] = legacy ? [ACCEPT, CT, ['mcp-protocol-version', '2025-06-18']] : modernHeaders(method, row.tool);
  return { body: JSON.stringify(o), headers };
}

function credential(token: Token): [string, string][] {
  const cookie: [string, string] = ['cookie', `sid=${CANARY}`];
  switch (token) {
    case 'none':
      return [cookie];
    case 'garbage':
      return [['authorization', `Bearer ${CANARY}.unknown`], cookie];
    case 'basic':
      return [['authorization', 'Basic dXNlcjpwYXNz'], cookie];
    case 'long':
      return [['authorization', `Bearer ${'a'.repeat(8193)}`], cookie];
    default:
      return [['authorization', `Bearer ${tokens[token]}`], cookie];
  }
}

/** Nothing secret in a reply: no token, no resource-server secret, no issuer, no backend credential. */
function expectNothingLeaked(text: string, challenge: string | null): void {
  for (const secret of [...Object.values(tokens), issuer.rsClient.secret, issuer.url, SERVICE_TOKEN, CANARY]) {
    expect(text).not.toContain(secret);
    expect(challenge ?? '').not.toContain(secret);
  }
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
}

for (const host of ['node', 'fetch'] as const) {
  for (const legacy of [false, true]) {
    describe(`authorization on the ${host} host, ${legacy ? '2025-06-18' : '2026-07-28'} profile`, () => {
      const servers: RunningServer[] = [];
      let send: Send;
      beforeAll(async () => {
        send = await sender(host, options(legacy), servers)();
      });
      afterAll(async () => {
        for (const s of servers) await s.close();
      });

      ROWS.forEach((row, i) => {
        it(row.name, async () => {
          const before = hits.length;
          const { body, headers } = request(legacy, row, 10 + i);
          const r = await send(body, [...headers, ...credential(row.token)], row.query);
          expect(r.status).toBe(row.status);
          expect(r.challenge).toBe(row.challenge);
          if (row.error !== undefined) {
            const b = JSON.parse(r.text);
            expect(b.error).toBe(row.error ?? undefined);
            expect(typeof b.error_description).toBe('string');
          } else if (row.listed !== undefined) {
            const b = JSON.parse(r.text);
            expect(b.result.tools.map((t: { name: string }) => t.name)).toEqual(row.listed);
          } else {
            expect(JSON.parse(r.text).result.isError).toBe(false);
          }
          expectNothingLeaked(r.text, r.challenge);
          await settle();
          const calls = hits.slice(before);
          expect(calls.length).toBe(row.backendCalls);
          for (const c of calls) {
            // The backend sees its own service credential only, never the client's token or cookie.
            expect(c.authorization).toBe(`Bearer ${SERVICE_TOKEN}`);
            expect(c.cookie).toBeUndefined();
          }
        });
      });

      it('a token revoked between two requests is refused on the next one', async () => {
        const token = await accessToken({ issuer: issuer.url, resource: RESOURCE, scope: 'mcp:access' });
        const { body, headers } = request(legacy, { method: 'tools/call', tool: 'status' }, 1);
        const auth: [string, string] = ['authorization', `Bearer ${token}`];
        const before = hits.length;
        expect((await send(body, [...headers, auth])).status).toBe(200);
        await revoke({ issuer: issuer.url, token });
        const r = await send(body, [...headers, auth]);
        expect([r.status, r.challenge]).toEqual([401, INVALID]);
        await settle();
        expect(hits.length - before).toBe(1);
      }, 20_000);
    });
  }
}

describe('a verifier that fails is 503, never a pass', () => {
  const cases: [Misbehaviour | 'unreachable', string][] = [
    ['slow', 'slower than the three-second ceiling'],
    ['oversized', 'a response over 16 KiB'],
    ['redirect', 'a redirect (never followed)'],
    ['malformed', 'a response that is not JSON'],
    ['error', 'a server error'],
    ['not_boolean', 'an `active` that is not a boolean'],
    ['unreachable', 'an endpoint that refuses connections'],
  ];
  for (const host of ['node', 'fetch'] as const) {
    const servers: RunningServer[] = [];
    afterAll(async () => {
      for (const s of servers) await s.close();
    });
    for (const [mode, what] of cases) {
      it(`${host}: ${what}`, async () => {
        misbehaviour = mode === 'unreachable' ? 'slow' : mode;
        const at = mode === 'unreachable' ? 'http://127.0.0.1:9' : scriptedUrl;
        const send = await sender(host, options(false, { issuer: at }), servers)();
        const before = hits.length;
        const trapBefore = trapHits;
        const { body, headers } = request(false, { method: 'tools/call', tool: 'status' }, 1);
        const started = Date.now();
        const r = await send(body, [...headers, ['authorization', `Bearer ${tokens.all}`]]);
        expect(r.status).toBe(503);
        expect(r.challenge).toBeNull();
        expect(JSON.parse(r.text)).toEqual({ error: 'temporarily_unavailable', error_description: 'The access token could not be verified; try again later' });
        expectNothingLeaked(r.text, r.challenge);
        if (mode === 'slow') expect(Date.now() - started).toBeLessThan(3_500);
        await settle();
        expect(hits.length).toBe(before);
        expect(trapHits).toBe(trapBefore);
      }, 10_000);
    }
    it(`${host}: the request deadline passing during introspection is 408`, async () => {
      misbehaviour = 'slow';
      const send = await sender(host, options(false, { issuer: scriptedUrl, deadlineMs: 800 }), servers)();
      const { body, headers } = request(false, { method: 'tools/list' }, 1);
      const r = await send(body, [...headers, ['authorization', `Bearer ${tokens.all}`]]);
      // The body is not read yet: the interruption of a request before its body, without id.
      expect(r.status).toBe(408);
      expect(JSON.parse(r.text)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Request body interrupted' } });
    }, 10_000);
  }
});

describe('the introspection cache (authorization.cache) against the real issuer', () => {
  const MAX_AGE_MS = 2_000;
  for (const host of ['node', 'fetch'] as const) {
    const servers: RunningServer[] = [];
    afterAll(async () => {
      for (const s of servers) await s.close();
    });
    it(`${host}: a token revoked at the issuer works until maxAgeMs has passed, then is 401`, async () => {
      const token = await accessToken({ issuer: issuer.url, resource: RESOURCE, scope: 'mcp:access' });
      const send = await sender(host, options(false, { issuer: issuer.url, cache: { maxAgeMs: MAX_AGE_MS } }), servers)();
      const { body, headers } = request(false, { method: 'tools/list' }, 1);
      const ask = () => send(body, [...headers, ['authorization', `Bearer ${token}`]]);
      // The entry is kept between the first request's start and its reply.
      const sent = Date.now();
      const got = [(await ask()).status];
      const answered = Date.now();
      await revoke({ issuer: issuer.url, token });
      got.push((await ask()).status);
      expect(Date.now() - sent).toBeLessThan(MAX_AGE_MS);
      await new Promise((r) => setTimeout(r, MAX_AGE_MS - (Date.now() - answered) + 50));
      const after = await ask();
      got.push(after.status);
      expect(got).toEqual([200, 200, 401]);
      expect(after.challenge).toBe(INVALID);
    }, 15_000);
  }
});

describe('JWT access tokens', () => {
  // This issuer version refuses to introspect JWT access tokens (unsupported_token_type); the host
  // must then fail closed, never read the JWT's own claims.
  it('a JWT the issuer will not introspect is 503, and nothing runs', async () => {
    const jwtIssuer = await startIssuer({ resource: RESOURCE, redirectUris: ['http://127.0.0.1:1/callback'], accessTokenFormat: 'jwt' });
    try {
      const token = await accessToken({ issuer: jwtIssuer.url, resource: RESOURCE, scope: 'mcp:access notes:read notes:write' });
      expect(token.split('.')).toHaveLength(3);
      const opts = options(false, { issuer: jwtIssuer.url });
      (opts.authorization as { clientSecret: string }).clientSecret = jwtIssuer.rsClient.secret;
      const h = fetchHandler(opts);
      const before = hits.length;
      const { body, headers } = request(false, { method: 'tools/call', tool: 'status' }, 1);
      const r = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: [...headers, ['authorization', `Bearer ${token}`]], body }));
      expect(r.status).toBe(503);
      expect(await r.text()).not.toContain(token);
      await settle();
      expect(hits.length).toBe(before);
    } finally {
      await jwtIssuer.close();
    }
  }, 30_000);
});

describe('protected resource metadata', () => {
  for (const host of ['node', 'fetch'] as const) {
    it(`${host}: GET and HEAD, unauthenticated, the exact resource, issuer and baseline scopes`, async () => {
      const opts = options(false);
      let get: (method: string) => Promise<Response>;
      const servers: RunningServer[] = [];
      if (host === 'node') {
        const s = await startNode(opts);
        servers.push(s);
        get = (method) => fetch(`http://127.0.0.1:${s.port}/.well-known/oauth-protected-resource/mcp`, { method });
      } else {
        const h = fetchHandler(opts);
        get = (method) => h.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp', { method }));
      }
      const r = await get('GET');
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      const text = await r.text();
      expect(JSON.parse(text)).toEqual({ resource: RESOURCE, authorization_servers: [issuer.url], scopes_supported: ['mcp:access'], bearer_methods_supported: ['header'] });
      expect(text).not.toContain(issuer.rsClient.secret);
      const head = await get('HEAD');
      expect([head.status, await head.text()]).toEqual([200, '']);
      const post = await get('POST');
      expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      for (const s of servers) await s.close();
    });
  }
});
