export class ComputeModuleError extends Error {
  readonly code: 'FOREIGN_IMPORT' | 'NOT_A_COMMAND';
}
export function checkImports(module: WebAssembly.Module): void;
