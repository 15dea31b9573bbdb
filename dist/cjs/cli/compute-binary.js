"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.computeImports = computeImports;
/**
 * A Compute binary a build wrote, checked as Fastly's `compute validate` does not: a valid
 * WebAssembly module that imports only Compute hostcalls and WASI preview 1 and is a command
 * (compute-host/compute-module.mjs holds the rule, shared with the Node Native host).
 */
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const usage_1 = require("./usage");
/** The modules `bytes` imports, sorted; `producer` names what wrote it in a refusal. */
async function computeImports(bytes, producer) {
    const { checkImports } = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.join)(__dirname, 'compute-host', 'compute-module.mjs')).href));
    let module;
    try {
        module = await WebAssembly.compile(bytes);
    }
    catch {
        throw new usage_1.CommandError(`${producer} wrote a module that is not valid WebAssembly`);
    }
    try {
        checkImports(module);
    }
    catch (e) {
        throw new usage_1.CommandError(`${producer} wrote a module that is not a Compute module: ${e.message}`);
    }
    return [...new Set(WebAssembly.Module.imports(module).map((i) => i.module))].sort();
}
