// Progress of a JavaScript tool, switched on by `progress: true` in the static binding: with
// `_meta.progressToken` the reply is a text/event-stream of notifications/progress events and then the
// response, on both forms (the Node listener over a real socket, Fetch through a streamed Response);
// without a token, without a report, or without the option, it stays plain JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntityRouter, type McpBindingOptions } from '../../src/pulse';
import { staticFetch, startStatic, type RunningServer } from '../support/hosts';
import { META, modernHeaders, SERVER_INFO } from '../support/fixtures';

const router = new EntityRouter('p')
  .operation('slow', {
    content: true,
    handler: async (ctx) => {
      for (let i = 0; i < 3; i++) {
        ctx.progress?.(i, 3, `step ${i}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      ctx.progress?.(1, 3); // not increasing: dropped
      return [{ type: 'text', text: 'slow done' }];
    },
  })
  .operation('quiet', { content: true, handler: () => [{ type: 'text', text: 'quiet done' }] });

const options: McpBindingOptions = { router, serverInfo: SERVER_INFO, contentBlocks: true, progress: true };
/** The same binding without the option: no handler gets a progress channel. */
const withoutProgress: McpBindingOptions = { router, serverInfo: SERVER_INFO, contentBlocks: true };

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

const cases: { name: string; tool: string; token?: string | number; streamed: boolean; options?: McpBindingOptions }[] = [
  { name: 'string token, reports', tool: 'slow', token: 'progress-test-1', streamed: true },
  { name: 'integer token, reports', tool: 'slow', token: 42, streamed: true },
  { name: 'no token, reports', tool: 'slow', streamed: false },
  { name: 'token, no report', tool: 'quiet', token: 'q', streamed: false },
  { name: 'token, reports, progress not switched on', tool: 'slow', token: 'off', streamed: false, options: withoutProgress },
];

describe('progress through handle(ctx)', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const handler = staticFetch(c.options ?? options);
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

describe("progress through the Node listener (real socket)", () => {
  let server: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    server = await startStatic(options);
    off = await startStatic(withoutProgress);
  });
  afterAll(async () => {
    await server?.close();
    await off?.close();
  });
  for (const c of cases) {
    it(c.name, async () => {
      const port = (c.options === undefined ? server : off).port;
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: modernHeaders('tools/call', c.tool), body: body(c.tool, c.token) });
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
