// Construction refusals of the `authorization` option, one row each, on both hosts: the message
// names the option and the rule, never the value (no URL, secret or scope text echoed).
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/options';
import { PulseConfigError } from '../../src/errors';
import { createMcpHttpHandler, createMcpNodeHandler } from '../support/hosts';
import { compileRouter } from '../../src/compiler';
import { EntityRouter } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';

const router = new EntityRouter('probe').operation('probe', { handler: () => undefined }).operation('status', { handler: () => undefined });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));
const catalogTools = () => ({ catalog, schemas: schemaRegistry, routerId: 'probe', target: 'node-javascript', endpoint: 'http://127.0.0.1:9/rpc' });

const SECRET = 'rs-secret-7f3a9e';
const base = {
  resource: 'https://mcp.example/mcp',
  issuer: 'https://id.example',
  introspectionEndpoint: 'https://id.example/introspect',
  clientId: 'pulse-rs',
  clientSecret: SECRET,
  scopes: ['mcp:access'],
  operations: { probe: [], status: ['notes:read'] },
};
const HTTPS = 'must be an https URL without credentials, query or fragment; http only to a literal loopback IP with allowInsecureLoopback: true';
const LOOPBACK_ONLY = 'must be an https URL without credentials, query or fragment (or http to a literal loopback IP, 127.0.0.0/8 or [::1]: never a name such as localhost)';

const ROWS: [string, Record<string, unknown>, string][] = [
  ['an http resource', { resource: 'http://mcp.example/mcp' }, `authorization.resource: ${HTTPS}`],
  ['loopback http without the flag', { resource: 'http://127.0.0.1:3000/mcp' }, `authorization.resource: ${HTTPS}`],
  ['a name that only begins like a loopback host', { resource: 'http://localhost.example:3000/mcp', allowInsecureLoopback: true }, `authorization.resource: ${LOOPBACK_ONLY}`],
  // A name is whatever the resolver says: only literal loopback IPs are taken over plain http.
  ['localhost itself', { resource: 'http://localhost:3000/mcp', allowInsecureLoopback: true }, `authorization.resource: ${LOOPBACK_ONLY}`],
  ['a localhost issuer', { issuer: 'http://localhost:4000', introspectionEndpoint: 'http://localhost:4000/introspect', allowInsecureLoopback: true }, `authorization.issuer: ${LOOPBACK_ONLY}`],
  ['a resource with a query', { resource: 'https://mcp.example/mcp?x=1' }, `authorization.resource: ${HTTPS}`],
  ['a resource with credentials', { resource: 'https://u:p@mcp.example/mcp' }, `authorization.resource: ${HTTPS}`],
  ['a resource path other than the handler path', { resource: 'https://mcp.example/other' }, 'authorization.resource: its path must be the handler path (/mcp)'],
  ['an http issuer', { issuer: 'http://id.example' }, `authorization.issuer: ${HTTPS}`],
  ['an introspection endpoint of another origin', { introspectionEndpoint: 'https://other.example/introspect' }, "authorization.introspectionEndpoint: must have the issuer's origin (scheme, host and port)"],
  ['an introspection endpoint on another port', { introspectionEndpoint: 'https://id.example:8443/introspect' }, "authorization.introspectionEndpoint: must have the issuer's origin (scheme, host and port)"],
  ['no baseline scope', { scopes: [] }, 'authorization.scopes: must name at least one baseline scope'],
  ['a scope that is no scope token', { scopes: ['a b'] }, 'authorization.scopes[0]: must be a scope token (RFC 6749 §3.3) not listed before'],
  ['an operation naming no tool', { operations: { probe: [], nope: [] } }, 'authorization.operations["nope"]: names no configured tool'],
  ['an operation scope list that is not an array', { operations: { probe: 'notes:read' } }, 'authorization.operations["probe"]: must be an array of at most 64 distinct scope tokens (RFC 6749 §3.3)'],
  ['an empty client id', { clientId: '' }, 'authorization.clientId: must be 1-256 characters without control characters'],
  ['an empty client secret', { clientSecret: '' }, 'authorization.clientSecret: must be 1-1024 bytes of text'],
  ['a missing client secret', { clientSecret: undefined }, 'authorization.clientSecret: must be the introspection client\'s secret (1-1024 bytes) or a secret-store reference {"secretStore", "key"}'],
  ['a secret-store reference on a host', { clientSecret: { secretStore: 'pulse', key: 'introspection' } }, 'authorization.clientSecret: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes the secret itself'],
  ['a flag that is not a boolean', { allowInsecureLoopback: 'yes' }, 'authorization.allowInsecureLoopback: must be a boolean'],
  ['an unknown member', { audience: 'x' }, 'authorization: unknown key "audience"'],
];

function configError(make: (o: never) => unknown, options: unknown): string {
  try {
    make(options as never);
  } catch (e) {
    expect(e).toBeInstanceOf(PulseConfigError);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

describe('authorization: construction refusals', () => {
  for (const [host, make] of Object.entries({ node: createMcpNodeHandler, fetch: createMcpHttpHandler })) {
    it.each(ROWS)(`${host}: %s`, (_, change, message) => {
      const text = configError(make, { tools: catalogTools(), authorization: { ...base, ...change } });
      expect(text).toBe(message);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('example');
    });
    it(`${host}: the server card would list every tool unauthenticated`, () => {
      expect(configError(make, { tools: catalogTools(), serverCard: true, authorization: base })).toBe('serverCard: the card lists every tool without authentication; it cannot be combined with authorization');
    });
    it(`${host}: operations name tools, so authorization without tools maps none`, () => {
      expect(configError(make, { authorization: base })).toBe('authorization.operations["probe"]: names no configured tool');
      expect(() => make({ authorization: { ...base, operations: undefined } } as never)).not.toThrow();
    });
  }
  it('the Fastly Native build refuses a secret given as text', () => {
    expect(() => resolveOptions({ tools: catalogTools(), authorization: base }, 'native')).toThrow(
      'authorization.clientSecret: a secret given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }',
    );
  });
  it('options are copied: changing them after construction changes nothing', async () => {
    const auth = { ...base, scopes: ['mcp:access'], allowInsecureLoopback: true, resource: 'http://127.0.0.1:1/mcp', issuer: 'http://127.0.0.1:9', introspectionEndpoint: 'http://127.0.0.1:9/i' };
    const h = createMcpHttpHandler({ tools: catalogTools(), authorization: auth } as never);
    auth.scopes.push('other');
    auth.resource = 'http://127.0.0.1:2/mcp';
    const r = await h.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'));
    expect(await r.json()).toEqual({ resource: 'http://127.0.0.1:1/mcp', authorization_servers: ['http://127.0.0.1:9'], scopes_supported: ['mcp:access'], bearer_methods_supported: ['header'] });
  });
});
