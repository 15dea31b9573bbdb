// The introspection cache on the Fastly Native service, on Fastly's Viceroy: the service built with
// `authorization.cache` (its issuer a local introspection endpoint reached as the `issuer` backend),
// Fastly's core cache (`fastly_cache` lookup and insert) as the store. Each step asserts the reply's
// status and whether the issuer was asked.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, modernHeaders } from '../support/fixtures';
import { freePort } from '../support/ports';
import { buildNative, serveViceroy, type ServedViceroy } from '../support/viceroy';

const MAX_AGE_MS = 1_500;
const dir = mkdtempSync(join(tmpdir(), 'pulse-edge-cache-'));

let issuer: http.Server;
let answer: [number, string] = [200, ''];
let asked = 0;
let viceroy: ServedViceroy | undefined;
let port = 0;

beforeAll(async () => {
  issuer = http.createServer((req, res) => {
    req.resume();
    // Viceroy probes its backends with `GET /` when it starts.
    if (req.method !== 'POST') return void res.writeHead(404).end();
    asked++;
    res.writeHead(answer[0], { 'content-type': 'application/json' }).end(answer[1]);
  });
  await new Promise<void>((r) => issuer.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  port = await freePort();
  const config = {
    path: '/mcp',
    allowedOrigins: [],
    serverInfo: { name: 'pulse-edge', version: '0.1.0' },
    limits: null,
    legacyProtocol: null,
    tools: null,
    authorization: {
      resource: `http://127.0.0.1:${port}/mcp`,
      issuer: origin,
      introspectionEndpoint: `${origin}/introspect`,
      clientId: 'rs',
      clientSecret: 'rs-secret',
      scopes: ['mcp:access'],
      allowInsecureLoopback: true,
      cache: { maxAgeMs: MAX_AGE_MS },
    },
  };
  await buildNative(JSON.stringify(config), join(dir, 'main.wasm'));
  writeFileSync(join(dir, 'fastly.toml'), `manifest_version = 3\nname = "cache-test"\nlanguage = "rust"\n\n[local_server.backends.issuer]\nurl = "${origin}"\n`);
  viceroy = await serveViceroy(join(dir, 'fastly.toml'), join(dir, 'main.wasm'), port);
}, 60_000);

afterAll(async () => {
  await viceroy?.stop();
  await new Promise((r) => issuer?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const NOW_S = () => Math.floor(Date.now() / 1000);
const active = () => JSON.stringify({ active: true, iss: `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`, aud: `http://127.0.0.1:${port}/mcp`, exp: NOW_S() + 600, sub: 'u1', scope: 'mcp:access' });

/** [wait ms before, token, the issuer's status and body, the reply's status, introspected] */
type Step = [number, string, () => [number, string], number, boolean];

describe('the introspection cache on Viceroy (fastly_cache)', () => {
  const token = () => `t${Math.random().toString(36).slice(2)}`;
  const a = token();
  const b = token();
  const c = token();
  const d = token();
  const rows: [string, Step[]][] = [
    [
      'a revoked token works until maxAgeMs has passed, then is refused',
      [
        [0, a, () => [200, active()], 200, true],
        [0, a, () => [200, '{"active":false}'], 200, false],
        [MAX_AGE_MS + 200, a, () => [200, '{"active":false}'], 401, true],
      ],
    ],
    [
      'two tokens never share an entry',
      [
        [0, b, () => [200, active()], 200, true],
        [0, c, () => [200, '{"active":false}'], 401, true],
        [0, b, () => [200, '{"active":false}'], 200, false],
      ],
    ],
    [
      'a verifier failure is never kept',
      [
        [0, token(), () => [500, active()], 503, true],
        [0, d, () => [500, active()], 503, true],
        [0, d, () => [200, active()], 200, true],
      ],
    ],
  ];
  it.each(rows)('%s', async (_, steps) => {
    const got: [number, boolean][] = [];
    for (const [wait, tok, issuerSays] of steps) {
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      answer = issuerSays();
      const before = asked;
      const headers = Object.fromEntries([...modernHeaders('server/discover'), ['authorization', `Bearer ${tok}`]]);
      const r = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers, body: envelope('server/discover', 1) });
      await r.arrayBuffer();
      got.push([r.status, asked > before]);
    }
    expect(got).toEqual(steps.map(([, , , status, introspected]) => [status, introspected]));
  }, 30_000);
});
