export const ROOT: string;
export const FASTLY: string;
export const WORK: string;
export const RECIPE: string;
export class EdgeError extends Error {
  readonly code: string;
}
export function run(cmd: string, args: string[], options?: object): string;
export function bundleForNode(entry: string, outfile: string, extra?: object): Promise<string>;
export interface EdgeService {
  readonly profile: 'static' | 'facade';
  /** The binding's options (static: as mcp-binding.json gives them) or the module's host options (facade). */
  readonly options: Record<string, unknown>;
  /** The compiled manifest (static profile only). */
  readonly manifest?: unknown;
  config(overrides?: Record<string, unknown>): string;
}
export function edgeService(module: string): Promise<EdgeService>;
export function configFor(module: string, opts?: { overrides?: Record<string, unknown> }): Promise<string>;
export function boundRouterConfig(module: string, opts?: { overrides?: Record<string, unknown> }): Promise<string>;
export function nativeSourcesHash(): string;
export function nativeBuildKey(configJson: string): string;
export function bundleForRuntime(entry: string, outfile: string, extra?: Record<string, unknown>): Promise<void>;
export function bundleJsEntry(outfile: string): Promise<string>;
