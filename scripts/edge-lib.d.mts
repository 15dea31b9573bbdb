export const ROOT: string;
export const FASTLY: string;
export const WORK: string;
export class EdgeError extends Error {
  readonly code: string;
}
export function run(cmd: string, args: string[], options?: object): string;
export function bundleForNode(entry: string, outfile: string, extra?: object): Promise<string>;
export function packageCli(): { serviceModule: unknown; nativeService: unknown };
export interface EdgeService {
  readonly profile: 'static' | 'facade';
  /** The options the configuration is resolved from (the static binding's carry its manifest as `tools`). */
  readonly options: Record<string, unknown>;
  config(overrides?: Record<string, unknown>): Promise<string>;
}
export function edgeService(module: string): Promise<EdgeService>;
export function configFor(module: string, opts?: { overrides?: Record<string, unknown> }): Promise<string>;
export function nativeBinary(configJson: string, out: string): Promise<{ path: string; bytes: number; importModules: readonly string[] }>;
export function boundRouterConfig(module: string, opts?: { overrides?: Record<string, unknown> }): Promise<string>;
export function bundleForRuntime(entry: string, outfile: string, extra?: Record<string, unknown>): Promise<void>;
export function bundleJsEntry(outfile: string): Promise<string>;
