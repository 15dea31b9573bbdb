// The request event on the Fastly Native service, on Fastly's Viceroy: the deployed binding built with
// `fastlyLogEndpoint` writes one line per request to that log endpoint, which Viceroy prints to its
// stdout as `<endpoint> :: <message>`. Built without the option, the same requests log nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_MODULE } from '../../scripts/edge-build.mjs';
import { serviceConfig } from '../../src/cli/service-module';
import { envelope, modernHeaders } from '../support/fixtures';
import { buildNative, serveViceroy, type ServedViceroy } from '../support/viceroy';

const ROOT = resolve(__dirname, '..', '..');
const ENDPOINT = 'pulse-events';
/** Sent with every request; the service has no authorization, and the event must never carry it. */
const TOKEN = 'tok-9c1e4b7d0a';
const dir = mkdtempSync(join(tmpdir(), 'pulse-edge-log-'));

let logging: ServedViceroy;
let silent: ServedViceroy;

beforeAll(async () => {
  const plain = (await serviceConfig(EDGE_MODULE)).configJson;
  const withLog = (await serviceConfig(EDGE_MODULE, { fastlyLogEndpoint: ENDPOINT })).configJson;
  expect(JSON.parse(withLog).fastlyLogEndpoint).toBe(ENDPOINT);
  // One target directory, one build after the other: the second relinks the service only.
  await buildNative(withLog, join(dir, 'logging.wasm'));
  await buildNative(plain, join(dir, 'silent.wasm'));
  writeFileSync(join(dir, 'fastly.toml'), 'manifest_version = 3\nname = "request-log-test"\nlanguage = "rust"\n');
  logging = await serveViceroy(join(dir, 'fastly.toml'), join(dir, 'logging.wasm'));
  silent = await serveViceroy(join(dir, 'fastly.toml'), join(dir, 'silent.wasm'));
}, 600_000);

afterAll(async () => {
  await logging?.stop();
  await silent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const meta = JSON.parse(envelope('x', 0)).params;
const withToken = (headers: [string, string][]) => Object.fromEntries([...headers, ['authorization', `Bearer ${TOKEN}`]]);

/** [what, method header and name, body, accept override, the reply's status, the event's fields] */
type Row = [string, string, string | undefined, string, string | undefined, number, Record<string, unknown>];
const rows: Row[] = [
  ['a discover', 'server/discover', undefined, envelope('server/discover', 1), undefined, 200, { method: 'server/discover', name: null, status: 200, code: null, isError: null, refusal: null }],
  [
    'a tools/call',
    'tools/call',
    'search_docs',
    envelope('tools/call', 2, { name: 'search_docs', arguments: { query: 'fastly' }, ...meta }),
    undefined,
    200,
    { method: 'tools/call', name: 'search_docs', status: 200, code: null, isError: false, refusal: null },
  ],
  ['a refused request (406)', 'server/discover', undefined, envelope('server/discover', 3), 'text/html', 406, { method: null, name: null, status: 406, code: null, refusal: 'not_acceptable' }],
];

/** The request's reply and the lines its endpoint received meanwhile (Viceroy writes them before it replies). */
async function send(s: ServedViceroy, [, method, name, body, accept]: Row): Promise<{ status: number; bytes: number; lines: string[] }> {
  const before = s.output.length;
  const headers = modernHeaders(method, name).map(([k, v]): [string, string] => (k === 'accept' && accept !== undefined ? [k, accept] : [k, v]));
  const r = await fetch(`http://127.0.0.1:${s.port}/mcp`, { method: 'POST', headers: withToken(headers), body, signal: AbortSignal.timeout(5000) });
  const bytes = (await r.arrayBuffer()).byteLength;
  // The log write precedes nothing the client sees: give the pipe a moment.
  await new Promise((r) => setTimeout(r, 100));
  const lines = s.output
    .slice(before)
    .split('\n')
    .filter((l) => l.startsWith(`${ENDPOINT} :: `));
  return { status: r.status, bytes, lines };
}

describe('the request event on Fastly Native (Viceroy, fastly_log)', () => {
  it.each(rows)('%s: exactly one line, one JSON object, target fastly-native, no token', async (...row) => {
    const [, , , body, , status, fields] = row;
    const got = await send(logging, row);
    expect(got.status).toBe(status);
    expect(got.lines).toHaveLength(1);
    const message = got.lines[0]!.slice(`${ENDPOINT} :: `.length);
    expect(message).not.toContain(TOKEN);
    const event = JSON.parse(message) as Record<string, unknown>;
    expect(event).toMatchObject({ ...fields, target: 'fastly-native', bytesIn: status === 406 ? 0 : Buffer.byteLength(body), bytesOut: got.bytes });
    for (const k of ['bodyMs', 'effectsMs', 'coreMs', 'totalMs']) expect(typeof event[k]).toBe('number');
  });

  it('logs nothing without fastlyLogEndpoint', async () => {
    for (const row of rows) {
      const got = await send(silent, row);
      expect(got.status).toBe(row[5]);
      expect(got.lines).toEqual([]);
    }
    expect(silent.output).not.toContain(' :: {');
  });
});
