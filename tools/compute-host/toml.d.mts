export class TomlError extends Error {
  readonly code: 'TOML_SYNTAX';
}
export function parseToml(text: string): Record<string, unknown>;
