// The server card through both hosts: a GET of /.well-known/mcp/server-card.json answers the core's
// card with a public five-minute cache lifetime when `serverCard` is set, and 404 when it is not.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchHandler, startNode, type RunningServer } from '../support/hosts';

const CARD = '/.well-known/mcp/server-card.json';
const OPTIONS = { serverInfo: { name: 'card-test', version: '2.0.0' }, serverCard: true };

function get(port: number, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

function expectCard(body: string): void {
  const card = JSON.parse(body);
  expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
  expect([card.name, card.version, card.protocolVersion]).toEqual(['card-test', '2.0.0', '2026-07-28']);
  expect(card.serverInfo).toEqual({ name: 'card-test', version: '2.0.0' });
  expect(card.transport).toEqual({ type: 'streamable-http', endpoint: '/mcp' });
  expect(card.capabilities).toEqual({});
  expect(card.tools).toEqual([]);
}

describe('server card on the Node host', () => {
  let on: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    on = await startNode(OPTIONS);
    off = await startNode({ serverInfo: OPTIONS.serverInfo });
  });
  afterAll(async () => {
    await on.close();
    await off.close();
  });

  it('GET answers the card, public for five minutes', async () => {
    const r = await get(on.port, CARD);
    expect([r.status, r.headers['cache-control'], r.headers['content-type']]).toEqual([200, 'public, max-age=300', 'application/json']);
    expectCard(r.body);
  });

  it('is absent unless configured', async () => {
    expect((await get(off.port, CARD)).status).toBe(404);
  });
});

describe('server card on the Fetch host', () => {
  it('GET answers the card; POST is 405 with Allow: GET', async () => {
    const h = fetchHandler(OPTIONS);
    const res = await h.fetch(new Request(`http://127.0.0.1${CARD}`));
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);
    expectCard(await res.text());
    const post = await h.fetch(new Request(`http://127.0.0.1${CARD}`, { method: 'POST', body: '{}' }));
    expect([post.status, post.headers.get('allow'), post.headers.get('cache-control')]).toEqual([405, 'GET', 'no-store']);
  });
});
