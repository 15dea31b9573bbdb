"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.instantiateCore = instantiateCore;
/**
 * Loads one instance of the core. Sources, in order: a precompiled `WebAssembly.Module` (workerd
 * imports wasm as a module and refuses to compile bytes), caller-supplied bytes, the package's own
 * `pulse_core.wasm` read from disk (Node), or the wasm2js build where `WebAssembly` is absent
 * (Fastly's JavaScript runtime).
 */
const errors_1 = require("../errors");
const exports_1 = require("./exports");
/** The wasm as the package exports it; resolves from the built package and from the checkout alike. */
const PACKAGE_WASM = '@pulse-compute/mcp/pulse_core.wasm';
const NO_FILE_SYSTEM = 'core: pulse_core.wasm cannot be read from a file here; pass the pulse_core.wasm module or its bytes as core';
const NO_PACKAGE_WASM = 'core: the package file pulse_core.wasm cannot be read; pass the pulse_core.wasm module or its bytes as core';
/** Compiled once per process: instances are cheap, compilation is not. */
let packageModule;
function wasmApi() {
    return globalThis.WebAssembly;
}
/**
 * This file in the built package, whose root holds `wasm/pulse_core.wasm`: within Node's bundle of the
 * exports, or as its own module.
 */
const BUILT_LOADER = /[\\/]dist[\\/](?:node[\\/]bundle|cjs[\\/]core[\\/]loader)\.js$/;
/**
 * The package's wasm bytes. Node built-ins come through `process.getBuiltinModule`, not an import, so
 * bundlers for Fetch runtimes see no Node dependency and runtimes without one fail with a clear error.
 * In the built package the file is read at its place in the package first: resolving the package's own
 * export costs a cold process 1.5-2 ms in Node's resolver; elsewhere (a bundle, the checkout) the
 * export decides.
 */
function packageWasmBytes() {
    const builtin = globalThis.process?.getBuiltinModule;
    const moduleApi = builtin?.('node:module');
    const fs = builtin?.('node:fs');
    if (moduleApi === undefined || fs === undefined || typeof __filename !== 'string')
        throw new errors_1.PulseConfigError(NO_FILE_SYSTEM);
    const built = BUILT_LOADER.exec(__filename);
    if (built !== null) {
        const sep = __filename[built.index];
        try {
            return fs.readFileSync(`${__filename.slice(0, built.index)}${sep}wasm${sep}pulse_core.wasm`);
        }
        catch {
            // Not laid out as published: the export below finds it or says so.
        }
    }
    try {
        return fs.readFileSync(moduleApi.createRequire(__filename).resolve(PACKAGE_WASM));
    }
    catch {
        throw new errors_1.PulseConfigError(NO_PACKAGE_WASM);
    }
}
/**
 * The wasm2js core. Required here, not imported, so that a runtime with WebAssembly never loads or
 * parses it; bundlers still see the literal path and include it.
 */
function wasm2jsCore() {
    const glue = require('./generated/core-wasm2js.cjs');
    return checked(glue.createCoreWasm2js());
}
function compile(wa, bytes) {
    try {
        return new wa.Module(bytes);
    }
    catch {
        // workerd: "code generation disallowed"; or the bytes are not the core.
        throw new errors_1.PulseConfigError('core: cannot compile the wasm here; pass the precompiled pulse_core.wasm module as core');
    }
}
function checked(exports) {
    const e = exports;
    const complete = typeof e === 'object' && e !== null && typeof e.memory?.buffer === 'object' &&
        exports_1.CORE_FUNCTIONS.every((name) => typeof e[name] === 'function');
    if (!complete)
        throw new errors_1.PulseConfigError('core: the module does not export the pulse-core ABI');
    return e;
}
/** A fresh, independent core instance (own linear memory). */
function instantiateCore(source) {
    const wa = wasmApi();
    if (wa === undefined) {
        if (source !== undefined)
            throw new errors_1.PulseConfigError('core: WebAssembly is absent here; omit core to use the built-in JavaScript core');
        return wasm2jsCore();
    }
    let module;
    if (source === undefined) {
        packageModule ??= compile(wa, packageWasmBytes());
        module = packageModule;
    }
    else if (source instanceof wa.Module) {
        module = source;
    }
    else {
        module = compile(wa, source);
    }
    let instance;
    try {
        instance = new wa.Instance(module, {});
    }
    catch {
        throw new errors_1.PulseCoreError('core: the wasm module could not be instantiated');
    }
    return checked(instance.exports);
}
