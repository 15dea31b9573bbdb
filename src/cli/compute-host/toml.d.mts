export class TomlError extends Error {
  readonly code: 'TOML_SYNTAX';
}
export function readToml(path: string): Record<string, unknown>;
