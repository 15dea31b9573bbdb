// "Response limit / internal failure → 500 / -32603": a core that traps, misbehaves (MISUSE) or
// returns a broken record must yield 500 -32603 with the fixed headers, and the handler recovers.
// The misbehaving cores are tiny modules with the full ABI, assembled from WAT with binaryen.
import { Engine, internalError } from '../../src/core/engine';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envelope, modernHeaders } from '../support/fixtures';
import { createMcpHttpHandler, startNode } from '../support/hosts';
import { send } from '../support/raw-http';
import { run } from '../support/run';

const root = path.resolve(__dirname, '..', '..');

/** A core whose request_head does `head` (WAT instructions leaving an i32 action). */
function wat(head: string, output = '(i32.const 0)'): string {
  return `(module
  (memory (export "memory") 2)
  (data (i32.const 4096) "200\\0d\\0acontent-type: text/plain\\0d\\0a")
  (func (export "pulse_alloc") (param i32) (result i32) (i32.const 8192))
  (func (export "pulse_dealloc") (param i32 i32))
  (func (export "pulse_engine_new") (param i32 i32) (result i32) (i32.const 1))
  (func (export "pulse_engine_error_ptr") (result i32) (i32.const 0))
  (func (export "pulse_engine_error_len") (result i32) (i32.const 0))
  (func (export "pulse_engine_free") (param i32))
  (func (export "pulse_request_new") (param i32 f64 f64) (result i32) (i32.const 1))
  (func (export "pulse_request_head") (param i32 i32 i32 f64) (result i32) ${head})
  (func (export "pulse_request_body") (param i32 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_end") (param i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_abort") (param i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_tick") (param i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_http_response") (param i32 i32 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_http_failure") (param i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_handler_output") (param i32 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_handler_failure") (param i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_progress") (param i32 f64 f64 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_timeout_ms") (param i32 f64) (result f64) (f64.const 1000))
  (func (export "pulse_request_event") (param i32) (result i32) (i32.const 0))
  (func (export "pulse_engine_fault_event") (param i32 i32) (result i32) (i32.const 0))
  (func (export "pulse_engine_service_names") (param i32) (result i32) (i32.const 0))
  (func (export "pulse_request_cached") (param i32 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_request_cache_entry") (param i32) (result i32) (unreachable))
  (func (export "pulse_request_rate") (param i32 i32 i32 f64) (result i32) (unreachable))
  (func (export "pulse_output_ptr") (param i32) (result i32) (i32.const 4096))
  (func (export "pulse_output_len") (param i32) (result i32) ${output})
  (func (export "pulse_request_free") (param i32))
  (func (export "pulse_engine_check") (param i32 i32 i32 i32 i32 i32) (result i32) (unreachable))
  (func (export "pulse_engine_fault") (param i32 i32) (result i32) (unreachable))
  (func (export "pulse_check_output_ptr") (result i32) (unreachable))
  (func (export "pulse_check_output_len") (result i32) (unreachable))
  (func (export "pulse_defaults_ptr") (result i32) (unreachable))
  (func (export "pulse_defaults_len") (result i32) (unreachable))
  (func (export "pulse_corpus_index") (param i32 i32) (result i32) (unreachable))
)`;
}

async function assemble(text: string): Promise<WebAssembly.Module> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pulse-fake-core-'));
  writeFileSync(path.join(dir, 'core.wat'), text);
  // Debian's binaryen (scripts/setup.sh) is native and fast; the npm build is the fallback.
  const [cmd, args] = existsSync('/usr/bin/wasm-as')
    ? ['/usr/bin/wasm-as', [] as string[]]
    : [process.execPath, [path.join(root, 'node_modules', 'binaryen', 'bin', 'wasm-as')]];
  const r = await run(cmd, [...args, 'core.wat', '-o', 'core.wasm'], { cwd: dir, timeoutMs: 60_000 });
  if (r.status !== 0) throw new Error(`wasm-as: ${r.stderr}`);
  return new WebAssembly.Module(readFileSync(path.join(dir, 'core.wasm')));
}

const discover = () =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: new Headers(modernHeaders('server/discover')), body: envelope('server/discover', 3) });

describe('internal failure → 500 -32603', () => {
  const cases: [string, string, string?][] = [
    ['the core traps', '(unreachable)'],
    ['the core reports MISUSE', '(i32.const 3)'],
    ['the core returns an unknown action', '(i32.const 77)'],
    ['the core returns a truncated response record', '(i32.const 1)', '(i32.const 5)'],
  ];
  for (const [name, head, output] of cases) {
    it(name, async () => {
      const h = createMcpHttpHandler({ core: await assemble(wat(head, output)) });
      for (let i = 0; i < 2; i++) {
        // Twice: after a trap the host must rebuild the instance and answer the same way again.
        const res = await h.fetch(discover());
        expect(res.status).toBe(500);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('content-type')?.split(';')[0]).toBe('application/json');
        const j = await res.json();
        expect(j.jsonrpc).toBe('2.0');
        expect(j.error?.code).toBe(-32603);
        expect(typeof j.error?.message).toBe('string');
      }
    }, 60_000);
  }
});

describe("the host's own 500", () => {
  it('is byte for byte the reply the core chooses for a host that cannot ask it', () => {
    const engine = Engine.create('{}');
    expect(engine.fault('internal')).toEqual(internalError());
  });
});

describe('internal failure on the Node host', () => {
  it('a trapping core answers 500 -32603 over TCP and the server keeps serving', async () => {
    const srv = await startNode({ core: await assemble(wat('(unreachable)')) });
    try {
      for (let i = 0; i < 2; i++) {
        const ex = await send(srv.port, { method: 'POST', path: '/mcp', headers: modernHeaders('server/discover'), body: Buffer.from(envelope('server/discover', 1)) });
        expect(ex.response?.status).toBe(500);
        expect(ex.response?.headers['cache-control']).toBe('no-store');
        expect(JSON.parse(ex.response!.body.toString()).error.code).toBe(-32603);
      }
    } finally {
      await srv.close();
    }
  }, 60_000);
});
