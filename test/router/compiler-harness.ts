// Drives the wasm core (src/core/engine.ts) with a compiled manifest: one tools/call or tools/list
// per request, resuming JavaScript-handler CALLs with a scripted answer. Used by the compiler and
// projection suites to check the TypeScript compiler against the Rust core that executes it.
import { Engine } from '../../src/core/engine';
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
  /** Every CALL instruction the core emitted, in order. */
  instructions: any[];
}

export function engineFor(manifest: Manifest, limits?: Record<string, number>): Engine {
  const config: Record<string, unknown> = { serverInfo: { name: 'compiler-test', version: '1' }, tools: manifest };
  if (limits !== undefined) config.limits = limits;
  return Engine.create(JSON.stringify(config));
}

function post(engine: Engine, method: string, name: string | undefined, params: Record<string, unknown>, answer?: (instruction: any) => unknown): Reply {
  const body = enc.encode(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { _meta: META, ...params } }));
  const headers: [string, string][] = [
    ['accept', 'application/json, text/event-stream'],
    ['content-type', 'application/json'],
    ['mcp-protocol-version', PROTOCOL],
    ['mcp-method', method],
  ];
  if (name !== undefined) headers.push(['mcp-name', name]);
  const req = engine.request(0);
  const instructions: any[] = [];
  try {
    let a = req.head('POST', '/mcp', headers, 0);
    if (a.kind === 'continue') a = req.body(body, 1);
    if (a.kind === 'continue') a = req.end(1);
    for (let i = 0; a.kind === 'call' && i < 4; i++) {
      instructions.push(a.instruction);
      if (answer === undefined) throw new Error('unexpected CALL');
      a = req.resume(JSON.stringify(answer(a.instruction)), 2);
    }
    if (a.kind !== 'respond') throw new Error(`request did not finish: ${a.kind}`);
    const text = dec.decode(a.body);
    return { status: a.status, body: text === '' ? undefined : JSON.parse(text), size: a.body.length, instructions };
  } finally {
    req.free();
  }
}

export function callTool(engine: Engine, name: string, args: unknown, answer?: (instruction: any) => unknown): Reply {
  return post(engine, 'tools/call', name, args === undefined ? { name } : { name, arguments: args }, answer);
}

export function listTools(engine: Engine): Reply {
  return post(engine, 'tools/list', undefined, {});
}
