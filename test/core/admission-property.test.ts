// Property test of the header ladder against a small reference model of the documented order of checks:
// path → method → Origin → Accept → Content-Type → Content-Encoding → modern header presence →
// agreement. Random header sets (values drawn from pools of valid and invalid spellings, sometimes
// split over repeated lines) accompany a valid discover body; status and code must match the model.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, PROTOCOL } from '../support/fixtures';
import { fetchHandler, startNode, type RunningServer } from '../support/hosts';
import { send } from '../support/raw-http';

const SEED = Number(process.env.PULSE_PROPERTY_SEED ?? 20261202) || undefined;
const handler = fetchHandler({ allowedOrigins: ['https://app.example'] });

const ACCEPTS = [
  'application/json, text/event-stream', 'text/event-stream, application/json', 'application/json,text/event-stream',
  'application/json;q=0.9, text/event-stream;q=0.1', 'APPLICATION/JSON, Text/Event-Stream', 'application/json, text/event-stream, */*',
  'application/json', 'text/event-stream', '*/*', 'application/*, text/*', '', 'text/html', 'application/jsonx, text/event-streams',
];
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/Json',
  'text/plain', 'application/jsonp', 'application/json; charset=iso-8859-1', '', 'text/json'];
const ENCODINGS = ['identity', 'gzip', 'br', 'deflate'];
const ORIGINS = ['https://app.example', 'https://evil.example', 'https://app.example/', 'null', 'http://app.example'];
const VERSIONS = [PROTOCOL, '2025-11-25', '2099-01-01', ''];
const METHODS = ['server/discover', 'tools/list', 'Server/Discover', ''];

interface HeaderCase {
  method: string;
  path: string;
  origin?: string;
  accept?: string[]; // one element per header line
  contentType?: string;
  encoding?: string;
  version?: string;
  mcpMethod?: string;
}

/** Mostly the valid value, sometimes another pool value, sometimes absent. */
const pick = (valid: string, pool: string[], absent = 1) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(valid) },
    { weight: 3, arbitrary: fc.constantFrom<string | undefined>(...pool) },
    { weight: absent, arbitrary: fc.constant<string | undefined>(undefined) },
  );
const caseArb: fc.Arbitrary<HeaderCase> = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT'),
  path: fc.constantFrom('/mcp', '/mcp', '/mcp', '/mcp', '/mcp', '/mcp', '/', '/mcp/', '/other'),
  origin: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(...ORIGINS) }),
  accept: fc.oneof(
    { weight: 4, arbitrary: pick(ACCEPTS[0], ACCEPTS).map((a) => (a === undefined ? undefined : [a])) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ACCEPTS), fc.constantFrom(...ACCEPTS)).map((t) => [...t]) },
  ),
  contentType: pick(CONTENT_TYPES[0], CONTENT_TYPES),
  encoding: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(...ENCODINGS) }),
  version: pick(PROTOCOL, VERSIONS),
  mcpMethod: pick('server/discover', METHODS),
});

const mediaTypes = (v: string) => v.split(',').map((p) => p.split(';')[0].trim().toLowerCase());

/** The reference model: [status, JSON-RPC code or null]. */
function model(c: HeaderCase): [number, number | null] {
  if (c.path !== '/mcp') return [404, null];
  if (c.method !== 'POST') return [405, null];
  if (c.origin !== undefined && c.origin !== 'https://app.example') return [403, null];
  const accepted = c.accept ? mediaTypes(c.accept.join(', ')) : [];
  if (!accepted.includes('application/json') || !accepted.includes('text/event-stream')) return [406, null];
  const ct = c.contentType ?? '';
  const [type, ...params] = ct.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json' || params.some((p) => p !== 'charset=utf-8')) return [415, null];
  if (c.encoding !== undefined && c.encoding !== 'identity') return [415, null];
  if (c.version === undefined || c.mcpMethod === undefined) return [400, -32020];
  if (c.version !== PROTOCOL || c.mcpMethod !== 'server/discover') return [400, -32020];
  return [200, null];
}

function headersOf(c: HeaderCase): [string, string][] {
  const h: [string, string][] = [];
  if (c.origin !== undefined) h.push(['origin', c.origin]);
  for (const a of c.accept ?? []) h.push(['accept', a]);
  if (c.contentType !== undefined) h.push(['content-type', c.contentType]);
  if (c.encoding !== undefined) h.push(['content-encoding', c.encoding]);
  if (c.version !== undefined) h.push(['mcp-protocol-version', c.version]);
  if (c.mcpMethod !== undefined) h.push(['mcp-method', c.mcpMethod]);
  return h;
}

const BODY = envelope('server/discover', 1);
const codeOf = (text: string): number | null => {
  try {
    return JSON.parse(text)?.error?.code ?? null;
  } catch {
    return null;
  }
};

describe('header ladder matches the reference model', () => {
  it('Fetch handler (600 cases)', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const headers = new Headers();
        for (const [n, v] of headersOf(c)) headers.append(n, v);
        const hasBody = c.method !== 'GET';
        const res = await handler.fetch(new Request(`http://127.0.0.1${c.path}`, { method: c.method, headers, body: hasBody ? BODY : undefined }));
        const text = await res.text();
        const expected = model(c);
        seen.add(expected[0]);
        expect([res.status, codeOf(text)], `${JSON.stringify(headersOf(c))} → ${text.slice(0, 120)}`).toEqual(expected);
      }),
      { numRuns: 600, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
    expect([...seen].sort()).toEqual([200, 400, 403, 404, 405, 406, 415]);
  });

  describe('Node host over TCP', () => {
    let srv: RunningServer;
    beforeAll(async () => {
      srv = await startNode({ allowedOrigins: ['https://app.example'] });
    });
    afterAll(async () => srv.close());

    it('150 cases', async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const body = c.method === 'GET' ? undefined : Buffer.from(BODY);
          const ex = await send(srv.port, { method: c.method, path: c.path, headers: headersOf(c), body });
          expect(ex.response, ex.error).not.toBeNull();
          const text = ex.response!.body.toString('utf8');
          expect([ex.response!.status, codeOf(text)], `${JSON.stringify(headersOf(c))} → ${text.slice(0, 120)}`).toEqual(model(c));
        }),
        { numRuns: 150, ...(SEED !== undefined ? { seed: SEED + 1 } : {}) },
      );
    });
  });
});
