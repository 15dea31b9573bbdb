// A minimal, independent driver of the pulse-core C ABI (docs/contracts.md#the-c-abi), used to compare the
// wasm and wasm2js variants call for call. It records every action code, every payload and every
// timeout answer, with host times fixed by the script (the core never reads a clock).
import type { CoreExports } from '../../src/core/exports';

export type Step =
  | { op: 'head'; text: string; now: number }
  | { op: 'body'; bytes: Uint8Array; now: number }
  | { op: 'end'; now: number }
  | { op: 'abort'; now: number }
  | { op: 'tick'; now: number }
  | { op: 'timeout'; now: number };

export interface Script {
  start: number;
  steps: Step[];
}

const enc = new TextEncoder();

function withInput<T>(core: CoreExports, bytes: Uint8Array, call: (ptr: number, len: number) => T): T {
  const len = bytes.length;
  const ptr = core.pulse_alloc(len) >>> 0;
  new Uint8Array(core.memory.buffer, ptr, len).set(bytes);
  const r = call(ptr, len);
  core.pulse_dealloc(ptr, len);
  return r;
}

export function newEngine(core: CoreExports, configJson: string): number | { error: string } {
  const e = withInput(core, enc.encode(configJson), (p, l) => core.pulse_engine_new(p, l)) >>> 0;
  if (e !== 0) return e;
  const ptr = core.pulse_engine_error_ptr() >>> 0;
  const len = core.pulse_engine_error_len() >>> 0;
  return { error: Buffer.from(new Uint8Array(core.memory.buffer, ptr, len)).toString('latin1') };
}

/** Runs one scripted request; returns a transcript string (hex payloads) to compare exactly. */
export function runScript(core: CoreExports, engine: number, s: Script): string {
  const out: string[] = [];
  const req = core.pulse_request_new(engine, s.start, Date.now()) >>> 0;
  out.push(`new ${req === 0 ? 0 : 1}`);
  try {
    for (const st of s.steps) {
      let code: number;
      if (st.op === 'timeout') {
        out.push(`timeout ${core.pulse_request_timeout_ms(req, st.now)}`);
        continue;
      }
      if (st.op === 'head') code = withInput(core, Buffer.from(st.text, 'latin1'), (p, l) => core.pulse_request_head(req, p, l, st.now));
      else if (st.op === 'body') code = withInput(core, st.bytes, (p, l) => core.pulse_request_body(req, p, l, st.now));
      else if (st.op === 'end') code = core.pulse_request_end(req, st.now);
      else if (st.op === 'abort') code = core.pulse_request_abort(req, st.now);
      else code = core.pulse_request_tick(req, st.now);
      code >>>= 0;
      let payload = '';
      if (code === 1 || code === 2) {
        const ptr = core.pulse_output_ptr(req) >>> 0;
        const len = core.pulse_output_len(req) >>> 0;
        payload = Buffer.from(new Uint8Array(core.memory.buffer, ptr, len)).toString('hex');
      }
      out.push(`${st.op} ${code} ${payload}`);
    }
  } catch (e) {
    out.push(`trap ${(e as Error).name}`);
  } finally {
    try {
      core.pulse_request_free(req);
    } catch {
      out.push('trap on free');
    }
  }
  return out.join('\n');
}

/** The head record (docs/contracts.md#records) for a method, target and header list. */
export function headRecord(method: string, target: string, headers: [string, string][]): string {
  return `${method} ${target}\r\n` + headers.map(([n, v]) => `${n}: ${v}\r\n`).join('');
}
