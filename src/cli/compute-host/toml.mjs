// fastly.toml and its kin, read with smol-toml (a complete TOML 1.0 parser). Shared by the edge
// build and the Node Native host; the package build bundles smol-toml into this file's shipped form.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse } from 'smol-toml';

export class TomlError extends Error {
  constructor(message) {
    super(message);
    this.code = 'TOML_SYNTAX';
  }
}

/**
 * The document at `path` as plain objects. A syntax error names the file and the line; the parser's
 * own message quotes the source around it, which may hold secret store data, so only its first line
 * is kept.
 */
export function readToml(path) {
  const text = readFileSync(path, 'utf8');
  try {
    return parse(text);
  } catch (e) {
    if (!(e instanceof Error) || typeof e.line !== 'number') throw e;
    const what = e.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    throw new TomlError(`${basename(path)} line ${e.line}: ${what}`);
  }
}
