/**
 * A Compute binary a build wrote, checked as Fastly's `compute validate` does not: a valid
 * WebAssembly module that imports only Compute hostcalls and WASI preview 1 and is a command
 * (compute-host/compute-module.mjs holds the rule, shared with the Node Native host).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandError } from './usage';

/** The modules `bytes` imports, sorted; `producer` names what wrote it in a refusal. */
export async function computeImports(bytes: Uint8Array, producer: string): Promise<string[]> {
  const { checkImports } = (await import(pathToFileURL(join(__dirname, 'compute-host', 'compute-module.mjs')).href)) as {
    checkImports(module: WebAssembly.Module): void;
  };
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch {
    throw new CommandError(`${producer} wrote a module that is not valid WebAssembly`);
  }
  try {
    checkImports(module);
  } catch (e) {
    throw new CommandError(`${producer} wrote a module that is not a Compute module: ${(e as Error).message}`);
  }
  return [...new Set(WebAssembly.Module.imports(module).map((i) => i.module))].sort();
}
