// Every case of spec/url-cases.json through the TypeScript entry points, which the core judges:
// backend URLs through backendBase, isBackendUrl, a router's backends and a catalog's endpoint
// (WHATWG-normalised first, then the core's generated rule); allowedOrigins and the authorization
// option's issuer through the core itself at construction. native/core/tests/url_cases.rs runs the
// same cases against the core's URL reader.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import { EntityRouter } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { backendBase, isBackendUrl } from '../../src/router/rules';
import { createMcpHttpHandler } from '../support/hosts';

interface Case {
  readonly url: string;
  readonly use: 'origin' | 'backend' | 'authorization' | 'authorization-loopback';
  readonly accepted: boolean;
  readonly length?: number;
  readonly base?: string | null;
}

const file = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'spec', 'url-cases.json'), 'utf8')) as { cases: Case[] };
const full = (c: Case): string => (c.length === undefined ? c.url : c.url + 'a'.repeat(c.length - c.url.length));
const title = (c: Case): string => `${c.use}: ${c.url}${c.length === undefined ? '' : ` (${c.length} bytes)`}`;

const router = new EntityRouter('probe').operation('probe', { handler: () => undefined });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));
const catalogTools = (endpoint: string) => ({ catalog, schemas: schemaRegistry, routerId: 'probe', target: 'node-javascript', endpoint });
const authorization = {
  resource: 'https://mcp.example/mcp',
  clientId: 'pulse-rs',
  clientSecret: 's',
  scopes: ['mcp:access'],
};

/** The construction error of `options`, or 'ok'. */
function verdict(options: unknown): string {
  try {
    createMcpHttpHandler(options as never);
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whether a router declaring `url` as a backend is constructed. */
function declared(url: string): boolean {
  try {
    new EntityRouter('r', { backends: { api: url } });
    return true;
  } catch {
    return false;
  }
}

describe('URL cases', () => {
  it('the file covers every use', () => {
    expect(new Set(file.cases.map((c) => c.use))).toEqual(new Set(['origin', 'backend', 'authorization', 'authorization-loopback']));
  });

  it.each(file.cases.filter((c) => c.use === 'backend').map((c) => [title(c), c] as const))('%s', (_, c) => {
    const url = full(c);
    const base = c.base === undefined ? (c.accepted ? url : null) : c.base;
    expect(isBackendUrl(url)).toBe(c.accepted);
    expect(backendBase(url) ?? null).toBe(base);
    expect(declared(url)).toBe(base !== null);
    expect(verdict({ tools: catalogTools(url) })).toBe(
      base === null ? 'tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment' : 'ok',
    );
  });

  it.each(file.cases.filter((c) => c.use === 'origin').map((c) => [title(c), c] as const))('%s', (_, c) => {
    expect(verdict({ allowedOrigins: [full(c)] })).toBe(
      c.accepted ? 'ok' : 'allowedOrigins[0]: must be an exact lowercase http(s) origin such as https://app.example',
    );
  });

  it.each(file.cases.filter((c) => c.use.startsWith('authorization')).map((c) => [title(c), c] as const))('%s', (_, c) => {
    const loopback = c.use === 'authorization-loopback';
    const url = full(c);
    const options = { tools: catalogTools('https://api.example/rpc'), authorization: { ...authorization, issuer: url, introspectionEndpoint: url, allowInsecureLoopback: loopback } };
    const refusal = loopback
      ? 'authorization.issuer: must be an https URL without credentials, query or fragment (or http to a literal loopback IP, 127.0.0.0/8 or [::1]: never a name such as localhost)'
      : 'authorization.issuer: must be an https URL without credentials, query or fragment; http only to a literal loopback IP with allowInsecureLoopback: true';
    expect(verdict(options)).toBe(c.accepted ? 'ok' : refusal);
  });
});
