export interface HostOptions {
  wasm: string | Uint8Array;
  toml: string;
  addr?: string;
  workers?: number;
  verbose?: number;
  requestTimeoutMs?: number;
  backendTimeoutMs?: number;
  maxQueue?: number;
}
export interface RunningHost {
  readonly url: string;
  readonly port: number;
  readonly compileMs: number;
  readonly firstInstantiated: number;
  close(): Promise<void>;
}
export class HostError extends Error {
  readonly code: string;
}
export function startHost(options: HostOptions): Promise<RunningHost>;
export function parseArgs(argv: string[]): { verbose: number; toml: string | null; addr: string; wasm: string | null; version: boolean };
