// The request event beyond the outcome table: tool calls through both forms of the static binding
// (isError false and true, the name set), an authorized request (the principal's `sub`, never the
// token, arguments or results), and W3C trace context from `_meta` continued as the OpenTelemetry
// span's parent (strictly validated: a malformed traceparent is dropped).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { compileRouter } from '../../src/compiler';
import { codec, EntityRouter, mcp } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { instrument } from '../../src/otel';
import { envelope, META, modernHeaders, SERVER_INFO } from '../support/fixtures';
import { fetchHandler, listen, startNode, type RunningServer } from '../support/hosts';
import { tapEvents } from '../support/events';

const ARG = 'ARG-CANARY-5e1';
const RESULT = 'RESULT-CANARY-9a2';
const TOKEN = 'tok.CANARY-7c3_secret';
const CLIENT_SECRET = 'client-secret-CANARY-1b4';
const BACKEND_TOKEN = 'svc-token.CANARY-3d8';
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const router = new EntityRouter('telemetry')
  .operation('echo', {
    input: codec.object({ text: codec.string() }),
    output: codec.object({ text: codec.string() }),
    handler: (_ctx: unknown, input: { text: string }) => ({ text: `${input.text} ${RESULT}` }),
  })
  .operation('fail', {
    input: codec.object({ text: codec.string() }),
    handler: () => {
      throw new Error(RESULT);
    },
  });

const call = (name: string, meta: Record<string, unknown> = META, id = 1) => ({
  headers: modernHeaders('tools/call', name),
  body: envelope('tools/call', id, { name, arguments: { text: ARG }, _meta: meta }),
});

const events = tapEvents();
const servers: RunningServer[] = [];
afterAll(async () => {
  events.close();
  for (const s of servers) await s.close();
});

type Send = (r: { headers: [string, string][]; body: string }) => Promise<{ status: number; text: string }>;
const binding = mcp({ router, serverInfo: SERVER_INFO });
const forms: [string, () => Promise<Send>][] = [
  ['handle(ctx)', async () => async (r) => {
    const res = await binding.handle({ request: new Request('http://127.0.0.1/mcp', { method: 'POST', headers: r.headers, body: r.body }) });
    return { status: res.status, text: await res.text() };
  }],
  ['nodeListener()', async () => {
    const s = await listen(binding.nodeListener());
    servers.push(s);
    return async (r) => {
      const res = await fetch(`http://127.0.0.1:${s.port}/mcp`, { method: 'POST', headers: r.headers, body: r.body });
      return { status: res.status, text: await res.text() };
    };
  }],
];

/** The one event of one exchange. */
async function exchange(send: Send, r: { headers: [string, string][]; body: string }) {
  events.take();
  const reply = await send(r);
  const published = events.take();
  expect(published.length).toBe(1);
  return { reply, event: published[0] };
}

describe('tools/call events of the static binding', () => {
  for (const [form, make] of forms) {
    it(`${form}: a result names the tool, isError false, and carries no argument or result value`, async () => {
      const send = await make();
      const r = call('echo');
      const { reply, event } = await exchange(send, r);
      expect(reply.status).toBe(200);
      expect(reply.text).toContain(RESULT);
      expect(event).toMatchObject({ method: 'tools/call', name: 'echo', status: 200, code: null, isError: false, refusal: null, protocolVersion: META['io.modelcontextprotocol/protocolVersion'], sub: null, traceparent: null, tracestate: null });
      expect(event.bytesIn).toBe(Buffer.byteLength(r.body));
      expect(event.bytesOut).toBe(Buffer.byteLength(reply.text));
      expect(event.effectsMs).toBeGreaterThanOrEqual(0);
      const text = JSON.stringify(event);
      for (const secret of [ARG, RESULT]) expect(text).not.toContain(secret);
    });

    it(`${form}: a failing handler is isError true`, async () => {
      const send = await make();
      const { reply, event } = await exchange(send, call('fail'));
      const j = JSON.parse(reply.text);
      expect(j.result?.isError).toBe(true);
      expect(event).toMatchObject({ method: 'tools/call', name: 'fail', status: 200, code: null, isError: true, refusal: null });
      expect(JSON.stringify(event)).not.toContain(RESULT);
    });
  }

  it('an unknown tool is refused with its code and kind', async () => {
    const [, make] = forms[0];
    const { reply, event } = await exchange(await make(), call('nope'));
    const j = JSON.parse(reply.text);
    expect(event).toMatchObject({ method: 'tools/call', name: 'nope', status: reply.status, code: j.error.code, isError: null });
    expect(event.refusal).toMatch(/^[a-z_]+$/);
  });

  it('each event names its own tool, one request after another: same length, other bytes, non-ASCII', async () => {
    const [, make] = forms[0];
    const send = await make();
    for (const name of ['echo', 'ecko', 'écho', 'echo', 'fail']) {
      const { event } = await exchange(send, call(name));
      expect(event.name).toBe(name);
    }
  });
});

describe('trace context from _meta', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let stop: () => void;
  beforeAll(() => {
    stop = instrument({ tracerProvider: provider });
  });
  afterAll(() => stop());

  it('continues the trace: the span is a server span whose remote parent is the traceparent', async () => {
    const [, make] = forms[0];
    exporter.reset();
    const { event } = await exchange(await make(), call('echo', { ...META, traceparent: PARENT, tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' }));
    expect(event.traceparent).toBe(PARENT);
    expect(event.tracestate).toBe('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('tools/call echo');
    expect(span.kind).toBe(1); // SpanKind.SERVER
    expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': META['io.modelcontextprotocol/protocolVersion'],
      'network.transport': 'tcp',
      'http.response.status_code': 200,
    });
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.status.code).toBe(0);
  });

  it('a tool error sets error.type tool_error and the ERROR status', async () => {
    const [, make] = forms[0];
    exporter.reset();
    await exchange(await make(), call('fail'));
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('tools/call fail');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.status.code).toBe(2);
  });

  it('a JSON-RPC error sets rpc.response.status_code and error.type to its code', async () => {
    const [, make] = forms[0];
    exporter.reset();
    const { event } = await exchange(await make(), call('nope'));
    const [span] = exporter.getFinishedSpans();
    expect(span.attributes['rpc.response.status_code']).toBe(String(event.code));
    expect(span.attributes['error.type']).toBe(String(event.code));
    expect(span.attributes['pulse_mcp.refusal']).toBe(event.refusal);
  });

  it('the request id: the event carries it as text and the span as jsonrpc.request.id; a notification has none', async () => {
    const [, make] = forms[0];
    const send = await make();
    for (const [idText, want] of [['7', '7'], ['"call-☃"', 'call-☃'], ['1e3', '1e3'], ['null', null]] as const) {
      exporter.reset();
      const r = call('echo');
      const { event } = await exchange(send, { ...r, body: r.body.replace('"id":1', `"id":${idText}`) });
      expect(event.requestId).toBe(want);
      const [span] = exporter.getFinishedSpans();
      expect(span.attributes['jsonrpc.request.id']).toBe(want ?? undefined);
    }
    exporter.reset();
    const n = call('echo');
    const { event } = await exchange(send, { ...n, body: n.body.replace('"id":1,', '') });
    expect([event.status, event.requestId]).toEqual([202, null]);
    expect(exporter.getFinishedSpans()[0]!.attributes['jsonrpc.request.id']).toBeUndefined();
  });

  it('a rate-limited call is the refusal rate_limited on the event and the span', async () => {
    const limitedBinding = mcp({ router, serverInfo: SERVER_INFO, rateLimit: { toolCalls: { limit: 1 } } });
    const send: Send = async (r) => {
      const res = await limitedBinding.handle({ request: new Request('http://127.0.0.1/mcp', { method: 'POST', headers: r.headers, body: r.body }), clientAddress: '203.0.113.5' });
      return { status: res.status, text: await res.text() };
    };
    await exchange(send, call('echo'));
    exporter.reset();
    const { reply, event } = await exchange(send, call('echo', META, 2));
    expect(reply.status).toBe(429);
    expect(event).toMatchObject({ method: 'tools/call', requestId: '2', name: 'echo', status: 429, code: -32023, refusal: 'rate_limited' });
    const [span] = exporter.getFinishedSpans();
    expect(span.attributes).toMatchObject({ 'pulse_mcp.refusal': 'rate_limited', 'error.type': '-32023', 'jsonrpc.request.id': '2', 'http.response.status_code': 429 });
    const n = call('echo');
    const { event: notified } = await exchange(send, { ...n, body: n.body.replace('"id":1,', '') });
    expect(notified).toMatchObject({ status: 429, requestId: null, code: null, refusal: 'rate_limited' });
  });

  for (const bad of [
    '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
    'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra',
  ]) {
    it(`a malformed traceparent is dropped: ${bad}`, async () => {
      const [, make] = forms[0];
      exporter.reset();
      const { event } = await exchange(await make(), call('echo', { ...META, traceparent: bad, tracestate: 'rojo=1' }));
      expect([event.traceparent, event.tracestate]).toEqual([null, null]);
      const [span] = exporter.getFinishedSpans();
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    });
  }
});

describe('an authorized request', () => {
  const RESOURCE = 'https://mcp.pulse.test/mcp';
  const def = compileRouter(routerDefinition(new EntityRouter('notes').operation('read', {
    input: codec.object({ id: codec.string({ maxLength: 32 }) }),
    output: codec.object({ text: codec.string({ maxLength: 64 }) }),
    handler: () => ({ text: '' }),
  })));
  let issuer: http.Server;
  let backend: http.Server;
  let issuerUrl: string;
  let endpoint: string;
  beforeAll(async () => {
    issuer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        active: true, iss: issuerUrl, aud: RESOURCE, exp: Math.floor(Date.now() / 1000) + 600, sub: 'alice', scope: 'mcp:access notes:read', client_id: 'c',
      })));
    });
    backend = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"jsonrpc":"2.0","id":1,"result":{"text":"${RESULT}"}}`));
    });
    for (const s of [issuer, backend]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    endpoint = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/rpc`;
  });
  afterAll(async () => {
    for (const s of [issuer, backend]) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  const options = () => ({
    tools: { catalog: def.catalog, schemas: def.schemaRegistry, routerId: 'notes', target: 'node-javascript', endpoint, backendBearerToken: BACKEND_TOKEN },
    authorization: {
      resource: RESOURCE, issuer: issuerUrl, introspectionEndpoint: `${issuerUrl}/introspect`, clientId: 'rs', clientSecret: CLIENT_SECRET,
      scopes: ['mcp:access'], operations: { read: ['notes:read'] }, allowInsecureLoopback: true,
    },
  });
  const request = (token: string) => ({
    headers: [...modernHeaders('tools/call', 'read'), ['authorization', `Bearer ${token}`]] as [string, string][],
    body: envelope('tools/call', 1, { name: 'read', arguments: { id: ARG }, _meta: META }),
  });

  for (const host of ['node', 'fetch'] as const) {
    it(`${host}: carries the principal's sub and never the token, secrets, arguments or results`, async () => {
      let send: Send;
      if (host === 'node') {
        const s = await startNode(options());
        servers.push(s);
        send = async (r) => {
          const res = await fetch(`http://127.0.0.1:${s.port}/mcp`, { method: 'POST', headers: r.headers, body: r.body });
          return { status: res.status, text: await res.text() };
        };
      } else {
        const h = fetchHandler(options());
        send = async (r) => {
          const res = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: r.headers, body: r.body }));
          return { status: res.status, text: await res.text() };
        };
      }
      const { reply, event } = await exchange(send, request(TOKEN));
      expect(reply.status).toBe(200);
      expect(reply.text).toContain(RESULT);
      expect(event).toMatchObject({ method: 'tools/call', name: 'read', status: 200, sub: 'alice', isError: false, refusal: null });
      expect(event.effectsMs).toBeGreaterThan(0);
      const text = JSON.stringify(event);
      for (const secret of [TOKEN, CLIENT_SECRET, BACKEND_TOKEN, ARG, RESULT, 'Bearer']) expect(text).not.toContain(secret);
    });
  }

  it('a refused token: no sub, the OAuth refusal kind, no token', async () => {
    const h = fetchHandler(options());
    const send: Send = async (r) => {
      const res = await h.fetch(new Request('http://127.0.0.1/mcp?access_token=x', { method: 'POST', headers: r.headers, body: r.body }));
      return { status: res.status, text: await res.text() };
    };
    const { event } = await exchange(send, request(TOKEN));
    expect(event).toMatchObject({ status: 400, sub: null, refusal: 'invalid_request' });
    expect(JSON.stringify(event)).not.toContain(TOKEN);
  });
});

describe('a request Node\'s parser refuses', () => {
  it('ends with the core\'s event of the fault reply: status, code and kind, nothing measured', async () => {
    const s = await startNode({});
    servers.push(s);
    // The listener takes over its server's parser errors from its first request on.
    await fetch(`http://127.0.0.1:${s.port}/mcp`, { method: 'POST', headers: modernHeaders('server/discover'), body: envelope('server/discover', 1, { _meta: META }) });
    events.take();
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(s.port, '127.0.0.1', () => {
        socket.write('POST /mcp HTTP/1.1\r\nhost: x\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n{}');
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.setTimeout(3000, () => socket.destroy());
    });
    const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    const published = events.take();
    expect(published.length).toBe(1);
    expect(published[0]).toMatchObject({
      method: null, name: null, status: 400, code: -32600, refusal: 'malformed_framing', bytesIn: 0,
      bytesOut: Buffer.byteLength(body), bodyMs: 0, effectsMs: 0, coreMs: 0, totalMs: 0, target: 'node-javascript',
    });
    expect(reply.startsWith('HTTP/1.1 400')).toBe(true);
  });
});
