// Progress of a JavaScript tool: with `_meta.progressToken` the reply is a text/event-stream of
// notifications/progress events and then the response, on both hosts (Node over a real socket,
// Fetch through a streamed Response); without a token, or without a report, it stays plain JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchHandler, startNode, type RunningServer } from '../support/hosts';
import { META, modernHeaders } from '../support/fixtures';

const manifest = {
  formatVersion: 1,
  routerId: 'p',
  catalogHash: 'h',
  deadlineMs: 5000,
  list: JSON.stringify([{ name: 'slow', inputSchema: { type: 'object' } }, { name: 'quiet', inputSchema: { type: 'object' } }]),
  tools: [
    { name: 'slow', input: null, output: null, content: true, handler: { kind: 'javascript' } },
    { name: 'quiet', input: null, output: null, content: true, handler: { kind: 'javascript' } },
  ],
  corpora: {},
};

const options = {
  tools: {
    manifest,
    handlers: {
      async run(op: string, _input: unknown, ctx: { progress?: (p: number, t?: number, m?: string) => void }) {
        if (op === 'slow') {
          for (let i = 0; i < 3; i++) {
            ctx.progress?.(i, 3, `step ${i}`);
            await new Promise((r) => setTimeout(r, 10));
          }
          ctx.progress?.(1, 3); // not increasing: dropped
        }
        return { ok: true, output: [{ type: 'text', text: `${op} done` }] };
      },
    },
  },
};

function body(name: string, token?: string | number): string {
  const meta = token === undefined ? META : { ...META, progressToken: token };
  return JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name, _meta: meta } });
}

/** `event: message` data lines of an SSE body, parsed. */
function events(text: string): any[] {
  return text
    .split('\n\n')
    .filter((e) => e.length > 0)
    .map((e) => {
      const lines = e.split('\n');
      expect(lines[0]).toBe('event: message');
      return JSON.parse(lines[1]!.replace(/^data: /, ''));
    });
}

function checkStream(contentType: string | null, text: string, token: string | number): void {
  expect(contentType).toBe('text/event-stream');
  const all = events(text);
  const progress = all.slice(0, -1);
  expect(progress.map((e) => e.params)).toEqual([0, 1, 2].map((i) => ({ progressToken: token, progress: i, total: 3, message: `step ${i}` })));
  expect(progress.every((e) => e.method === 'notifications/progress' && e.id === undefined)).toBe(true);
  expect(all.at(-1)).toMatchObject({ id: 9, result: { resultType: 'complete', content: [{ type: 'text', text: 'slow done' }] } });
}

const cases: { name: string; tool: string; token?: string | number; streamed: boolean }[] = [
  { name: 'string token, reports', tool: 'slow', token: 'progress-test-1', streamed: true },
  { name: 'integer token, reports', tool: 'slow', token: 42, streamed: true },
  { name: 'no token, reports', tool: 'slow', streamed: false },
  { name: 'token, no report', tool: 'quiet', token: 'q', streamed: false },
];

describe('progress over the Fetch host', () => {
  const handler = fetchHandler(options);
  for (const c of cases) {
    it(c.name, async () => {
      const res = await handler.fetch(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers: modernHeaders('tools/call', c.tool), body: body(c.tool, c.token) }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      if (c.streamed) checkStream(res.headers.get('content-type'), text, c.token!);
      else {
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(JSON.parse(text)).toMatchObject({ id: 9, result: { resultType: 'complete', content: [{ type: 'text', text: `${c.tool} done` }] } });
      }
    });
  }
});

describe('progress over the Node host (real socket)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startNode(options);
  });
  afterAll(() => server.close());
  for (const c of cases) {
    it(c.name, async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, { method: 'POST', headers: modernHeaders('tools/call', c.tool), body: body(c.tool, c.token) });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      if (c.streamed) {
        expect(res.headers.get('x-accel-buffering')).toBe('no');
        checkStream(res.headers.get('content-type'), text, c.token!);
      } else expect(res.headers.get('content-type')).toBe('application/json');
    });
  }
});
