export class HostConfigError extends Error {
  readonly code: string;
}
export interface Backend {
  name: string;
  host: string;
  port: number;
  pathPrefix: string;
  authority: string;
  overrideHost: string | null;
}
export interface HostConfig {
  name: string;
  backends: Map<string, Backend>;
  configStores: Map<string, Map<string, string>>;
  dictionaries: Map<string, Map<string, string>>;
  secretStores: Map<string, Map<string, { data: Buffer; metadata: string }>>;
  kvStores: Map<string, Map<string, { data: Buffer; metadata: string }>>;
  logEndpoints: string[] | null;
}
export function loadHostConfig(tomlPath: string): HostConfig;
