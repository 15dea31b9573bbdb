// The Node host's HTTP effect exchange over injected node:http / node:https modules that record
// what they are asked and answer as each row says: which module and agent a URL takes, the exact
// request options, and how the reply's events become the result (the cap, a failure, a cancel).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { nodeExchange } from '../../src/adapter/node/http-exchange';
import { nodeModules, type NodeModules } from '../../src/adapter/node/listener';
import { EntityRouter, handlers, mcp } from '../../src/pulse';
import { PulseConfigError } from '../../src/errors';
import { Cancellation } from '../../src/core/cancellation';
import type { HttpEffect } from '../../src/core/engine';

class FakeAgent {
  constructor(readonly options: unknown) {}
}

/** A client request that records what was written and whether it was destroyed. */
class FakeRequest extends EventEmitter {
  ended: unknown = 'not ended';
  destroyed = false;
  end(body?: unknown): void {
    this.ended = body;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

class FakeResponse extends EventEmitter {
  destroyed = false;
  constructor(readonly statusCode: number | undefined) {
    super();
  }
  destroy(): void {
    this.destroyed = true;
  }
}

interface Made {
  module: 'http' | 'https';
  options: Record<string, unknown>;
  request: FakeRequest;
}

function fakeModules(): { node: NodeModules; made: Made[] } {
  const made: Made[] = [];
  const module = (name: 'http' | 'https') => ({
    Agent: FakeAgent,
    request: (options: Record<string, unknown>) => {
      const request = new FakeRequest();
      made.push({ module: name, options, request });
      return request;
    },
  });
  return { node: { http: module('http'), https: module('https') } as unknown as NodeModules, made };
}

const effect = (over: Partial<HttpEffect> = {}): HttpEffect => ({ kind: 'http', backend: 'b', method: 'GET', url: 'https://h.example/rpc', headers: [['accept', 'application/json']], maxBytes: 8, timeoutMs: 1000, ...over });

describe('the Node exchange: which module, agent and request options a URL takes', () => {
  it.each([
    // URL, then the module and the options it is asked for (the agent by its module), or unreachable
    ['https://h.example/rpc?x=1', { module: 'https', host: 'h.example', port: 443, path: '/rpc?x=1', agent: 'https' }],
    ['http://h.example/rpc', { module: 'http', host: 'h.example', port: 80, path: '/rpc', agent: 'http' }],
    ['http://h.example:8080/a/b', { module: 'http', host: 'h.example', port: '8080', path: '/a/b', agent: 'http' }],
    ['https://h.example:8443/', { module: 'https', host: 'h.example', port: '8443', path: '/', agent: 'https' }],
    ['http://[::1]:9/a', { module: 'http', host: '::1', port: '9', path: '/a', agent: 'http' }],
    ['ftp://h.example/a', 'unreachable'],
    ['not a URL', 'unreachable'],
  ] as const)('%s', async (url, want) => {
    const { node, made } = fakeModules();
    const exchange = nodeExchange(node);
    const pending = exchange(effect({ url }), new Cancellation());
    if (want === 'unreachable') {
      expect(await pending).toBe('unreachable');
      expect(made).toEqual([]);
      return;
    }
    expect(made).toHaveLength(1);
    const { module, options } = made[0]!;
    const agent = options.agent as FakeAgent;
    expect(agent).toBeInstanceOf(FakeAgent);
    expect(agent.options).toEqual({ keepAlive: true });
    // The same agent serves every URL of its scheme.
    void exchange(effect({ url: `${url.startsWith('https') ? 'https' : 'http'}://other.example/` }), new Cancellation());
    const again = made[1]!.options.agent;
    expect({ module, host: options.host, port: options.port, path: options.path, agent: made[1]!.module, method: options.method, headers: options.headers }).toEqual({
      ...want,
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    expect(again).toBe(agent);
  });

  it('the same URL twice is parsed once and gives the same options', async () => {
    const { node, made } = fakeModules();
    const exchange = nodeExchange(node);
    void exchange(effect({ url: 'http://h.example/a' }), new Cancellation());
    void exchange(effect({ url: 'http://h.example/a' }), new Cancellation());
    expect(made.map((m) => [m.module, m.options.host, m.options.port, m.options.path])).toEqual([
      ['http', 'h.example', 80, '/a'],
      ['http', 'h.example', 80, '/a'],
    ]);
  });

  it('node:https is read only when an https URL is first asked for, then once', () => {
    const { node, made } = fakeModules();
    let reads = 0;
    const lazy = { http: node.http, get https() { reads++; return node.https; } } as NodeModules;
    const exchange = nodeExchange(lazy);
    void exchange(effect({ url: 'http://h.example/a' }), new Cancellation());
    expect(reads).toBe(0);
    void exchange(effect({ url: 'https://h.example/a' }), new Cancellation());
    void exchange(effect({ url: 'https://h.example/b' }), new Cancellation());
    expect(made.map((m) => m.module)).toEqual(['http', 'https', 'https']);
    // The agent on the first https URL, then one read per request made.
    expect(reads).toBe(3);
  });
});

describe('the Node exchange: the request it writes and the result of the reply', () => {
  type Step = (request: FakeRequest, cancellation: Cancellation) => void;
  const reply = (status: number | undefined, chunks: string[], then: 'end' | 'error' | 'aborted' | 'none'): Step => (request) => {
    const response = new FakeResponse(status);
    request.emit('response', response);
    for (const c of chunks) response.emit('data', Buffer.from(c));
    if (then !== 'none') response.emit(then, new Error('x'));
    (request as FakeRequest & { response?: FakeResponse }).response = response;
  };
  it.each([
    // name, the effect, what happens, the result, whether the request and the reply were destroyed
    ['a reply that ends', effect(), reply(201, ['{"a":', '1}'], 'end'), { status: 201, body: '{"a":1}' }, [false, false]],
    ['exactly at the cap', effect(), reply(200, ['1234', '5678'], 'end'), { status: 200, body: '12345678' }, [false, false]],
    ['one byte over the cap: the rest unread', effect(), reply(200, ['12345678', '9', 'more'], 'none'), { status: 200, body: '123456789' }, [false, true]],
    ['no status code', effect(), reply(undefined, [], 'end'), { status: 0, body: '' }, [false, false]],
    ['a reply that fails', effect(), reply(200, ['12'], 'error'), 'unreachable', [false, false]],
    ['a reply cut short', effect(), reply(200, ['12'], 'aborted'), 'unreachable', [false, false]],
    ['a request that fails', effect(), (r: FakeRequest) => r.emit('error', new Error('refused')), 'unreachable', [false, false]],
    ['cancelled while waiting', effect(), (_: FakeRequest, c: Cancellation) => c.cancel(), 'unreachable', [true, false]],
    ['an answer after a failure is ignored', effect(), (r: FakeRequest) => (r.emit('error', new Error('x')), reply(200, ['1'], 'end')(r, new Cancellation())), 'unreachable', [false, false]],
  ] as const)('%s', async (_, e, step, want, [requestDestroyed, replyDestroyed]) => {
    const { node, made } = fakeModules();
    const cancellation = new Cancellation();
    const pending = nodeExchange(node)(e, cancellation);
    const { request } = made[0]!;
    step(request, cancellation);
    const result = await pending;
    expect(result === 'unreachable' ? result : { status: result.status, body: Buffer.from(result.body).toString() }).toEqual(want);
    expect(request.destroyed).toBe(requestDestroyed);
    expect((request as FakeRequest & { response?: FakeResponse }).response?.destroyed ?? false).toBe(replyDestroyed);
  });

  it.each([
    // name, the effect, the headers asked for, what the request was ended with
    ['without a body: no content-length, ended with nothing', effect(), { accept: 'application/json' }, undefined],
    ['with a body: its byte length', effect({ method: 'POST', body: '{"é":1}', headers: [['content-type', 'application/json']] }), { 'content-type': 'application/json', 'content-length': '8' }, '{"é":1}'],
  ] as const)('the request %s', (_, e, headers, ended) => {
    const { node, made } = fakeModules();
    void nodeExchange(node)(e, new Cancellation());
    expect(made[0]!.options.method).toBe(e.method);
    expect(made[0]!.options.headers).toEqual(headers);
    expect(made[0]!.request.ended).toBe(ended);
  });
});

describe("Node's modules as both Node bindings hand them to the listener", () => {
  it('node:https loaded on its first read, then kept', () => {
    const { node } = fakeModules();
    let loads = 0;
    const modules = nodeModules(node.http, () => (loads++, node.https));
    expect(loads).toBe(0);
    expect(modules.https).toBe(node.https);
    expect(modules.https).toBe(node.https);
    expect(loads).toBe(1);
  });

  it('the static binding off Node: PulseConfigError naming nodeListener and handle(ctx)', () => {
    const server = mcp({ router: new EntityRouter('n').operation('a', { handler: handlers.static({}) }), serverInfo: { name: 'n', version: '1' } });
    const proc = process as { getBuiltinModule?: unknown };
    const real = proc.getBuiltinModule;
    proc.getBuiltinModule = undefined;
    try {
      expect(() => server.nodeListener()).toThrow(new PulseConfigError('nodeListener: needs Node (20.16 or later); on a Fetch runtime serve handle(ctx)'));
    } finally {
      proc.getBuiltinModule = real;
    }
  });
});
