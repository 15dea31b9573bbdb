/**
 * `pulse-mcp compile <router module> --out <dir> [--response-bytes N] [--request-bytes N]`
 * Loads the router module, compiles it, has the core accept the manifest under those limits (its
 * own rules, and whether `tools/list` fits the response budget) and writes manifest.json,
 * entities-catalog.json and schema-json-registry.json. Exit codes: 0 written, 1 compile failure,
 * 2 usage.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifactFiles, compileRouter, ManifestError } from './index';
import { createMcpHttpHandler } from '../index';
import type { McpLimits } from '../limits';
import type { RouterDefinition } from '../router/definition';

const USAGE = 'usage: pulse-mcp compile <router module> --out <dir> [--response-bytes N] [--request-bytes N]';


function definitionOf(mod: Record<string, unknown>): RouterDefinition {
  const candidates = [mod.default, mod.router];
  const nested = (mod.default as Record<string, unknown> | undefined)?.default;
  if (nested !== undefined) candidates.push(nested);
  for (const c of candidates) {
    if (typeof c !== 'object' || c === null) continue;
    const d = (c as { definition?: unknown }).definition;
    const def = typeof d === 'function' ? (d as () => unknown).call(c) : d ?? c;
    if (typeof def === 'object' && def !== null && Array.isArray((def as RouterDefinition).operations)) return def as RouterDefinition;
  }
  throw new ManifestError('the module exports no router: export a RouterDefinition (or an object with `definition`) as default or `router`');
}

function positiveInt(v: string | undefined): number | undefined {
  if (v === undefined || !/^[1-9][0-9]{0,9}$/.test(v)) return undefined;
  return Number(v);
}

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, modulePath, ...rest] = argv;
  let out: string | undefined;
  const limits: { -readonly [K in keyof McpLimits]?: number } = {};
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i];
    const value = rest[i + 1];
    if (flag === '--out' && value !== undefined) out = value;
    else if (flag === '--response-bytes' && positiveInt(value) !== undefined) limits.responseBytes = positiveInt(value);
    else if (flag === '--request-bytes' && positiveInt(value) !== undefined) limits.requestBytes = positiveInt(value);
    else {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
  }
  if (cmd !== 'compile' || modulePath === undefined || out === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    // module Node16 keeps import() in the CommonJS build, so ESM and CJS router modules both load.
    const mod = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
    const compiled = compileRouter(definitionOf(mod));
    // The core is the judge of a manifest; a rejection is a PulseConfigError with its message.
    createMcpHttpHandler({ limits, tools: { manifest: compiled.manifest } });
    const files = artifactFiles(compiled);
    mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
    process.stdout.write(`wrote ${Object.keys(files).join(', ')} to ${out}\n`);
    return 0;
  } catch (err) {
    // Only typed Pulse errors (fixed messages) are printed; a foreign exception's text could carry anything.
    const code = (err as { code?: unknown } | null)?.code;
    const typed = err instanceof ManifestError || (typeof code === 'string' && code.startsWith('PULSE_ERR_'));
    process.stderr.write(typed ? `pulse-mcp: ${(err as Error).message}\n` : 'pulse-mcp: the router module failed to load\n');
    return 1;
  }
}
