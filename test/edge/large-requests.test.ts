// Large requests on the Fastly Native service, on Fastly's Viceroy: a catalog-backed tool whose
// backend (a loopback origin, the Fastly backend `origin`) answers results near the reply ceiling,
// and request bodies at the request ceiling, framed by Content-Length or chunked. Such a request
// allocates well past the instance's arena, so its later blocks come from the system allocator:
// every reply must still be the exact bytes the service owes, request after request on one Viceroy.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceConfig } from '../../src/cli/service-module';
import { options as catalogOptions } from '../fixtures/edge-large-catalog';
import { META, envelope, modernHeaders } from '../support/fixtures';
import { buildNative, serveViceroy, type ServedViceroy } from '../support/viceroy';

const ROOT = resolve(__dirname, '..', '..');
const MODULE = join(ROOT, 'test', 'fixtures', 'edge-large-catalog.ts');
const REQUEST_BYTES = 64 * 1024;
const RESPONSE_BYTES = 1024 * 1024;
const SERVER_INFO = { name: 'large', version: '1.0.0' };
const dir = mkdtempSync(join(tmpdir(), 'pulse-edge-large-'));

let origin: http.Server;
/** The JSON-RPC calls the origin received, in order. */
const calls: { method: string; params: unknown }[] = [];
let viceroy: ServedViceroy | undefined;

/** ASCII text that JSON needs no escape for, the same for the same seed: a reply cannot pass by repeating another's. */
function text(seed: number, bytes: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-';
  let x = (seed * 2654435761 + 1) >>> 0;
  let s = '';
  for (let i = 0; i < bytes; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += alphabet[(x >>> 16) % alphabet.length];
  }
  return s;
}

/** The backend's result for `fill`: `kib` KiB of text and 12 small items per KiB (many small blocks to parse and encode). */
function filled(seed: number, kib: number): { text: string; items: { k: string; n: number }[] } {
  return { text: text(seed, kib * 1024), items: Array.from({ length: kib * 12 }, (_, i) => ({ k: `k${seed}-${i}`, n: (seed * 7919 + i) % 100000 })) };
}

/** The exact reply to a tools/call whose backend answered `result` (the 2026-07-28 shape). */
function toolReply(id: number, result: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result, isError: false, _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
  });
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // Viceroy probes its backends with `GET /` when it starts.
      if (req.method !== 'POST' || req.url !== '/rpc') return void res.writeHead(404).end();
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; params: { seed?: number; kib?: number; text?: string } };
      calls.push({ method: msg.method, params: msg.params });
      const result = msg.method === 'fill' ? filled(msg.params.seed!, msg.params.kib!) : { text: msg.params.text };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
    });
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  const configJson = (await serviceConfig(MODULE, { tools: { ...catalogOptions.tools, endpoint: `${base}/rpc` } })).configJson;
  // The core's default ceilings, and the reply ceiling as each backend call's maxBytes.
  const config = JSON.parse(configJson) as { limits?: unknown; tools: { tools: { handler: { maxBytes: number } }[] } };
  expect(config.limits).toBeUndefined();
  expect(config.tools.tools.map((t) => t.handler.maxBytes)).toEqual([RESPONSE_BYTES, RESPONSE_BYTES]);
  await buildNative(configJson, join(dir, 'large.wasm'));
  writeFileSync(join(dir, 'fastly.toml'), `manifest_version = 3\nname = "large-requests-test"\nlanguage = "rust"\n\n[local_server.backends.origin]\nurl = "${base}"\n`);
  viceroy = await serveViceroy(join(dir, 'fastly.toml'), join(dir, 'large.wasm'));
}, 600_000);

afterAll(async () => {
  await viceroy?.stop();
  await new Promise((r) => origin?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const call = (id: number, name: string, args: unknown) => envelope('tools/call', id, { name, arguments: args, _meta: META });
const discover = envelope('server/discover', 1);
/** The discover body padded with trailing whitespace to `bytes`. */
const padded = (bytes: number) => discover + ' '.repeat(bytes - Buffer.byteLength(discover));
const ECHOED = text(7, REQUEST_BYTES - 600);

interface Reply {
  status: number;
  length: string | null;
  body: string;
}

async function send(headers: [string, string][], body: string): Promise<Reply> {
  const r = await fetch(`http://127.0.0.1:${viceroy!.port}/mcp`, { method: 'POST', headers: Object.fromEntries(headers), body, signal: AbortSignal.timeout(15_000) });
  const bytes = Buffer.from(await r.arrayBuffer());
  return { status: r.status, length: r.headers.get('content-length'), body: bytes.toString('utf8') };
}

/** Sends `body` chunked (no Content-Length), in pieces of at most 8 KiB with pauses between them. */
async function sendChunked(headers: [string, string][], body: string): Promise<Reply> {
  const bytes = Buffer.from(body);
  const stream = new ReadableStream<Uint8Array>({
    async start(c) {
      for (let at = 0; at < bytes.length; at += 8192) {
        c.enqueue(new Uint8Array(bytes.subarray(at, at + 8192)));
        await new Promise((r) => setTimeout(r, 2));
      }
      c.close();
    },
  });
  const init = { method: 'POST', headers: Object.fromEntries(headers), body: stream, duplex: 'half', signal: AbortSignal.timeout(15_000) };
  const r = await fetch(`http://127.0.0.1:${viceroy!.port}/mcp`, init as RequestInit);
  const got = Buffer.from(await r.arrayBuffer());
  return { status: r.status, length: r.headers.get('content-length'), body: got.toString('utf8') };
}

/** [what, request headers, body, the reply's status, its exact body (undefined: the discover reply), the backend call it makes] */
type Row = [string, [string, string][], string, number, string | undefined, { method: string; params: unknown } | undefined];
const fill = (id: number, seed: number, kib: number): Row => [
  `fill ${kib} KiB (seed ${seed})`,
  modernHeaders('tools/call', 'fill'),
  call(id, 'fill', { seed, kib }),
  200,
  toolReply(id, filled(seed, kib)),
  { method: 'fill', params: { seed, kib } },
];
const echo = (id: number, s: string): Row => [
  `echo of ${Buffer.byteLength(s)} bytes`,
  modernHeaders('tools/call', 'echo'),
  call(id, 'echo', { text: s }),
  200,
  toolReply(id, { text: s }),
  { method: 'echo', params: { text: s } },
];
const rows: Row[] = [
  fill(2, 1, 1),
  fill(3, 2, 300),
  echo(4, 'hello'),
  echo(5, ECHOED),
  ['discover', modernHeaders('server/discover'), discover, 200, undefined, undefined],
  [`discover padded to ${REQUEST_BYTES} bytes`, modernHeaders('server/discover'), padded(REQUEST_BYTES), 200, undefined, undefined],
  [`discover padded to ${REQUEST_BYTES + 1} bytes`, modernHeaders('server/discover'), padded(REQUEST_BYTES + 1), 413, JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Request body too large' } }), undefined],
];

let discoverBody: string | undefined;

/** Sends `row` and asserts its reply exactly; the backend call it made, if any, as the origin received it. */
async function check([, headers, body, status, expected, backendCall]: Row): Promise<Reply> {
  const before = calls.length;
  const got = await send(headers, body);
  discoverBody ??= expected === undefined && got.status === 200 ? got.body : undefined;
  const want = expected ?? discoverBody;
  // Compared by hash first: a failure prints two lines, not two megabytes.
  expect({ status: got.status, length: got.length, sha: sha(got.body) }).toEqual({ status, length: String(Buffer.byteLength(want!)), sha: sha(want!) });
  expect(got.body).toBe(want);
  expect(calls.slice(before)).toEqual(backendCall === undefined ? [] : [backendCall]);
  return got;
}

describe('large requests on Fastly Native (Viceroy)', () => {
  it('the large rows are what they claim: a result near the reply ceiling, bodies at the request ceiling', () => {
    const large = Buffer.byteLength(rows[1]![4]!);
    expect(large).toBeGreaterThan(700 * 1024);
    expect(large).toBeLessThan(RESPONSE_BYTES);
    // The backend's own reply stays within the catalog call's maxBytes (the reply ceiling).
    expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result: filled(2, 300) }))).toBeLessThan(RESPONSE_BYTES);
    expect(Buffer.byteLength(rows[3]![2])).toBeGreaterThan(REQUEST_BYTES - 1024);
    expect(Buffer.byteLength(rows[3]![2])).toBeLessThanOrEqual(REQUEST_BYTES);
    expect(Buffer.byteLength(rows[5]![2])).toBe(REQUEST_BYTES);
  });

  it.each(rows)('%s: the exact reply', async (...row) => {
    const got = await check(row);
    if (row[0] === 'discover') expect(JSON.parse(got.body).result.resultType).toBe('complete');
  });

  it('the same rows again, in a row, large and small interleaved with new seeds: nothing carries over', async () => {
    const again: Row[] = [fill(10, 3, 300), rows[2]!, fill(11, 4, 320), echo(12, ECHOED.slice(1)), rows[5]!, fill(13, 5, 280), rows[0]!, rows[6]!, fill(14, 3, 300)];
    for (const row of again) await check(row);
  }, 60_000);

  // The service sees a body's end without a last read when the request declared its length, and by a
  // read of nothing when it did not (chunked): both framings, the same exact replies.
  it.each([
    ['discover', discover, 200, undefined],
    [`discover padded to ${REQUEST_BYTES} bytes`, padded(REQUEST_BYTES), 200, undefined],
    [`discover padded to ${REQUEST_BYTES + 1} bytes`, padded(REQUEST_BYTES + 1), 413, rows[6]![4]],
  ] as const)('%s, chunked: the exact reply', async (_, body, status, expected) => {
    const got = await sendChunked(modernHeaders('server/discover'), body);
    expect({ status: got.status, sha: sha(got.body) }).toEqual({ status, sha: sha(expected ?? discoverBody!) });
  });

  it('large calls at once: each instance answers its own', async () => {
    const burst = [fill(20, 6, 300), fill(21, 7, 300), echo(22, ECHOED), fill(23, 8, 300)];
    const before = calls.length;
    const got = await Promise.all(burst.map(([, headers, body]) => send(headers, body)));
    got.forEach((g, i) => expect({ status: g.status, sha: sha(g.body) }).toEqual({ status: 200, sha: sha(burst[i]![4]!) }));
    expect(calls.slice(before).map((c) => JSON.stringify(c)).sort()).toEqual(burst.map((b) => JSON.stringify(b[5])).sort());
  }, 60_000);
});
