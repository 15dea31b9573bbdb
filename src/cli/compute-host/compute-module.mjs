// What a Fastly Compute module must be, checked by the edge build on its output and by the Node
// Native host before serving one.

export class ComputeModuleError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Checks that a module imports only Compute hostcalls and WASI preview 1, and is a command. */
export function checkImports(module) {
  const bad = WebAssembly.Module.imports(module).filter((i) => !(i.module.startsWith('fastly_') || i.module === 'wasi_snapshot_preview1'));
  if (bad.length) throw new ComputeModuleError('FOREIGN_IMPORT', `module imports outside fastly_* and wasi_snapshot_preview1: ${[...new Set(bad.map((i) => i.module))].join(', ')}`);
  const exps = WebAssembly.Module.exports(module).map((e) => e.name);
  if (!exps.includes('_start') || !exps.includes('memory')) throw new ComputeModuleError('NOT_A_COMMAND', 'module must export _start and memory (a wasm32-wasi command)');
}
