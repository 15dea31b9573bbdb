// src/cli/compute-host/compute-module.mjs
var ComputeModuleError = class extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
};
function checkImports(module) {
  const bad = WebAssembly.Module.imports(module).filter((i) => !(i.module.startsWith("fastly_") || i.module === "wasi_snapshot_preview1"));
  if (bad.length) throw new ComputeModuleError("FOREIGN_IMPORT", `module imports outside fastly_* and wasi_snapshot_preview1: ${[...new Set(bad.map((i) => i.module))].join(", ")}`);
  const exps = WebAssembly.Module.exports(module).map((e) => e.name);
  if (!exps.includes("_start") || !exps.includes("memory")) throw new ComputeModuleError("NOT_A_COMMAND", "module must export _start and memory (a wasm32-wasi command)");
}
export {
  ComputeModuleError,
  checkImports
};
