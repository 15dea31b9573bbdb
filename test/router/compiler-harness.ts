// Drives the wasm core (src/core/engine.ts) with a compiled manifest: one tools/call or tools/list
// per request, answering each effect (HTTP exchange or JavaScript handler) with a scripted answer. Used by the compiler and
// projection suites to check the TypeScript compiler against the Rust core that executes it.
import { Engine, type Action, type CoreRequest, type Effect } from '../../src/core/engine';
import type { Manifest } from '../../src/compiler';

const PROTOCOL = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'compiler-test', version: '1' },
};
const enc = new TextEncoder();
const dec = new TextDecoder();

export interface Reply {
  status: number;
  body: any;
  /** Bytes of the reply body as the core framed it. */
  size: number;
  /** Every effect the core asked for, in order. */
  effects: Effect[];
}

/**
 * A scripted answer: an HTTP response `{ status, body }` or failure `{ failed: 'unreachable' |
 * 'timedOut' }`, a handler's `{ output }` or `{ failed: true }`.
 */
export type Scripted = { status: number; body: string } | { output: unknown } | { failed: 'unreachable' | 'timedOut' | true };

function answerWith(req: CoreRequest, effect: Effect, a: Scripted): Action {
  if (effect.kind === 'http') {
    if ('status' in a) return req.httpResponse(a.status, enc.encode(a.body), 2);
    return req.httpFailure('failed' in a && a.failed === 'timedOut' ? 'timedOut' : 'unreachable', 2);
  }
  return 'output' in a ? req.handlerOutput(JSON.stringify(a.output ?? null), 2) : req.handlerFailure(2);
}

export function engineFor(manifest: Manifest, limits?: Record<string, number>): Engine {
  const config: Record<string, unknown> = { serverInfo: { name: 'compiler-test', version: '1' }, tools: manifest };
  if (limits !== undefined) config.limits = limits;
  return Engine.create(JSON.stringify(config));
}

function post(engine: Engine, method: string, name: string | undefined, params: Record<string, unknown>, answer?: (effect: Effect) => Scripted): Reply {
  const body = enc.encode(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { _meta: META, ...params } }));
  const headers: [string, string][] = [
    ['accept', 'application/json, text/event-stream'],
    ['content-type', 'application/json'],
    ['mcp-protocol-version', PROTOCOL],
    ['mcp-method', method],
  ];
  if (name !== undefined) headers.push(['mcp-name', name]);
  const req = engine.request(0);
  const effects: Effect[] = [];
  try {
    let a = req.head('POST', '/mcp', headers.flat(), 0);
    if (a.kind === 'continue') a = req.body(body, 1);
    if (a.kind === 'continue') a = req.end(1);
    for (let i = 0; a.kind === 'perform' && i < 4; i++) {
      effects.push(a.effect);
      if (answer === undefined) throw new Error('unexpected effect');
      a = answerWith(req, a.effect, answer(a.effect));
    }
    if (a.kind !== 'respond') throw new Error(`request did not finish: ${a.kind}`);
    const text = dec.decode(a.body);
    return { status: a.status, body: text === '' ? undefined : JSON.parse(text), size: a.body.length, effects };
  } finally {
    req.free();
  }
}

export function callTool(engine: Engine, name: string, args: unknown, answer?: (effect: Effect) => Scripted): Reply {
  return post(engine, 'tools/call', name, args === undefined ? { name } : { name, arguments: args }, answer);
}

export function listTools(engine: Engine): Reply {
  return post(engine, 'tools/list', undefined, {});
}
