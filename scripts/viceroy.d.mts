export const VICEROY_VERSION: string;
export const VICEROY: string;
export function ensureViceroy(options?: { log?: (message: string) => void }): string;
export function startViceroy(options: { wasm: string; toml: string; addr: string; viceroy?: string }): Promise<{
  url: string;
  pid: number | undefined;
  output(): string;
  close(): Promise<void>;
}>;
