import type { ErlStore } from './erl.mjs';
export interface HostOptions {
  wasm: string | Uint8Array;
  toml: string;
  addr?: string;
  workers?: number;
  verbose?: number;
  requestTimeoutMs?: number;
  backendTimeoutMs?: number;
  maxQueue?: number;
  /** The rate counters' and penalty boxes' wall clock in milliseconds (`Date.now`): for tests. */
  clock?: () => number;
}
export interface RunningHost {
  readonly url: string;
  readonly port: number;
  readonly compileMs: number;
  readonly firstInstantiated: number;
  /** The rate counters and penalty boxes every worker shares (`fastly_erl`). */
  readonly erl: ErlStore;
  close(): Promise<void>;
}
export class HostError extends Error {
  readonly code: string;
}
export function startHost(options: HostOptions): Promise<RunningHost>;
export function parseArgs(argv: string[]): { verbose: number; toml: string | null; addr: string; wasm: string | null; version: boolean };
