export const GLUE: { readonly wasm2js: string; readonly wasm2jsTypes: string; readonly defaults: string };
export const SOURCES: { readonly wasm: string; readonly wasm2js: string };
export function coreDefaults(wasmBytes: Uint8Array): unknown;
export function coreGlue(root?: string): Record<string, string>;
export function writeCoreGlue(root?: string): string[];
export default function setup(): void;
