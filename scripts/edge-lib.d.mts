export const ROOT: string;
export const FASTLY: string;
export const WORK: string;
export const RECIPE: string;
export class EdgeError extends Error {
  readonly code: string;
}
export function run(cmd: string, args: string[], options?: object): string;
export function bundleForNode(entry: string, outfile: string, extra?: object): Promise<string>;
export function configFor(routerModule: string, opts: { native: boolean; overrides?: { legacyProtocol?: '2025-06-18' } }): Promise<string>;
export function nativeSourcesHash(): string;
export function nativeBuildKey(configJson: string): string;
export function bundleForRuntime(entry: string, outfile: string, extra?: Record<string, unknown>): Promise<void>;
export function bundleJsEntry(outfile: string): Promise<string>;
