/**
 * Loads one instance of the core. Sources, in order: a precompiled `WebAssembly.Module` (workerd
 * imports wasm as a module and refuses to compile bytes), caller-supplied bytes, the embedded wasm
 * (Node, Deno, Bun), or the wasm2js build where `WebAssembly` is absent (Fastly's JavaScript runtime).
 */
import { PulseConfigError, PulseCoreError } from '../errors';
import type { McpCoreSource } from '../options';
import { CORE_WASM_BASE64 } from './artifacts/core-wasm';
import { createCoreWasm2js } from './artifacts/core-wasm2js';
import { decodeBase64 } from './base64';
import { CORE_FUNCTIONS, type CoreExports } from './exports';

interface WasmApi {
  Module: new (bytes: Uint8Array | ArrayBuffer) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
}

/** Compiled once per process: instances are cheap, compilation is not. */
let embeddedModule: object | undefined;

function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

function compile(wa: WasmApi, bytes: Uint8Array | ArrayBuffer): object {
  try {
    return new wa.Module(bytes);
  } catch {
    // workerd: "code generation disallowed"; or the bytes are not the core.
    throw new PulseConfigError('core: cannot compile the wasm here; pass the precompiled pulse_core.wasm module as core');
  }
}

function checked(exports: unknown): CoreExports {
  const e = exports as Record<string, unknown>;
  const complete =
    typeof e === 'object' && e !== null && typeof (e.memory as { buffer?: unknown } | undefined)?.buffer === 'object' &&
    CORE_FUNCTIONS.every((name) => typeof e[name] === 'function');
  if (!complete) throw new PulseConfigError('core: the module does not export the pulse-core ABI');
  return e as unknown as CoreExports;
}

/** A fresh, independent core instance (own linear memory). */
export function instantiateCore(source?: McpCoreSource): CoreExports {
  const wa = wasmApi();
  if (wa === undefined) {
    if (source !== undefined) throw new PulseConfigError('core: WebAssembly is absent here; omit core to use the built-in JavaScript core');
    return checked(createCoreWasm2js());
  }
  let module: object;
  if (source === undefined) {
    embeddedModule ??= compile(wa, decodeBase64(CORE_WASM_BASE64));
    module = embeddedModule;
  } else if (source instanceof wa.Module) {
    module = source;
  } else {
    module = compile(wa, source as Uint8Array | ArrayBuffer);
  }
  let instance: { readonly exports: unknown };
  try {
    instance = new wa.Instance(module, {});
  } catch {
    throw new PulseCoreError('core: the wasm module could not be instantiated');
  }
  return checked(instance.exports);
}
