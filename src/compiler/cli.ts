/**
 * The `pulse-mcp` command line. Commands:
 *   compile <router module> --out <dir> [--response-bytes N] [--request-bytes N]
 *     Loads (evaluates) the router module, compiles it, has the core accept the manifest under those
 *     limits (its own rules, and whether `tools/list` fits the response budget) and writes
 *     manifest.json, entities-catalog.json and schema-json-registry.json.
 *   --help, --version
 *   build <router module> --out <dir> [--router <id>] [--target <target>] [--evidence <report>]
 *     Reads the module's declarations without running it (./lower.ts) and writes the catalog
 *     artifacts and the inspection artifact (with measured evidence from a diff report, ./evidence.ts);
 *     for a Native target and an exported mcp() binding, also manifest.json and mcp-binding.json.
 * Exit codes: 0 done, 1 the module or its declarations failed, 2 usage.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { artifactFiles, compileRouter, ManifestError, TARGETS, targetRefusal, type CompiledRouter, type Target } from './index';
import { operationEvidence } from './evidence';
import { lowerRouter, type DeclaredBinding } from './lower';
import { staticOptions } from '../router/bind';
import { createHostCore } from '../core/driver';
import { resolveOptions } from '../options';
import type { McpLimits } from '../limits';
import type { RouterDefinition } from '../router/definition';

const HELP = `pulse-mcp: compile statically declared MCP tools for the Pulse MCP hosts and the Fastly edge.

usage:
  pulse-mcp compile <router module> --out <dir> [--response-bytes N] [--request-bytes N]
      Evaluate the module, compile its router and write manifest.json, entities-catalog.json and
      schema-json-registry.json to <dir>. The module's default (or \`router\`) export is an EntityRouter
      or a RouterDefinition. The core checks the manifest first, under the default limits or the
      ones given (the static /pulse binding uses --response-bytes 131072 --request-bytes 32768).
  pulse-mcp build <router module> --out <dir> [--router <id>] [--target <target>] [--evidence <report>]
      Read the module's declarations without running it (the TypeScript compiler, an optional peer
      dependency, parses it) and write entities-catalog.json, schema-json-registry.json and
      entities-inspection.json (what each handler may do, by capability, never a value). A value the
      module computes (a call of its own function, a spread, a computed name, a codec built in a
      loop) is refused with file:line:column and what to write instead.
      --target <target>   refuse operations the target cannot run; targets:
                          ${TARGETS.join(', ')}
                          For a Native target, a module that exports
                          \`const server = mcp({ router, serverInfo })\` is the service: the
                          call is read too (serverInfo, legacyProtocol, limits: static values)
                          and manifest.json and mcp-binding.json (POST /mcp, every Origin
                          refused, the static ceilings lowered by the limits; a raise is
                          refused) are written for the Native build
      --evidence <report> add, per operation, the targets a differential run served it on (the
                          report npm run diff writes: .test-results/diff-evidence.json); without
                          it each operation's evidence is null
  pulse-mcp --help | --version

exit status: 0 written, 1 the module or a declaration was refused (the reason is printed), 2 usage.
`;

class UsageError extends Error {}

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
  const names = Object.keys(mod).sort();
  throw new ManifestError(
    `the module exports no router (its exports: ${names.length ? names.join(', ') : 'none'}): ` +
      'export an EntityRouter or a RouterDefinition as `default` or as `router`',
  );
}

function positiveInt(flag: string, v: string | undefined): number {
  if (v === undefined || !/^[1-9][0-9]{0,9}$/.test(v)) throw new UsageError(`${flag} takes a positive integer, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`);
  return Number(v);
}

interface CommandArgs {
  readonly modulePath: string;
  readonly out: string;
  readonly limits: { -readonly [K in keyof McpLimits]?: number };
  readonly router?: string;
  readonly target?: Target;
  readonly evidence?: string;
}

/** `compile` takes the limit flags, `build` the router and target flags; both a module and --out. */
function parseArgs(command: 'compile' | 'build', args: readonly string[]): CommandArgs {
  let modulePath: string | undefined;
  let out: string | undefined;
  let router: string | undefined;
  let target: Target | undefined;
  let evidence: string | undefined;
  const limits: CommandArgs['limits'] = {};
  const value = (flag: string, v: string | undefined, what: string): string => {
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} takes ${what}`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--out') out = value(arg, args[++i], 'a directory');
    else if (command === 'compile' && arg === '--response-bytes') limits.responseBytes = positiveInt(arg, args[++i]);
    else if (command === 'compile' && arg === '--request-bytes') limits.requestBytes = positiveInt(arg, args[++i]);
    else if (command === 'build' && arg === '--router') router = value(arg, args[++i], 'a router id');
    else if (command === 'build' && arg === '--target') {
      const t = value(arg, args[++i], `one of ${TARGETS.join(', ')}`);
      const refused = targetRefusal('--target', t);
      if (refused !== undefined) throw new UsageError(refused);
      target = t as Target;
    } else if (command === 'build' && arg === '--evidence') evidence = value(arg, args[++i], 'the path of a diff report');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (modulePath === undefined) modulePath = arg;
    else throw new UsageError(`unexpected argument ${arg}: ${command} takes one router module`);
  }
  if (modulePath === undefined) throw new UsageError(`${command} needs a router module`);
  if (out === undefined) throw new UsageError(`${command} needs --out <dir>`);
  return { modulePath, out, limits, router, target, evidence };
}

/** The cause of a module that did not load, as Node reports it, without the stack. */
function loadFailure(path: string, err: unknown): string {
  const e = err as { name?: unknown; message?: unknown } | null;
  const what = typeof e?.message === 'string' ? `${typeof e.name === 'string' ? `${e.name}: ` : ''}${e.message}` : String(err);
  return `${path} did not load: ${what}${e?.name === 'SyntaxError' ? syntaxLocation(path) : ''}`;
}

/** import() reports no position for a syntax error; `node --check` prints file:line and a caret. */
function syntaxLocation(path: string): string {
  const check = spawnSync(process.execPath, ['--check', resolve(path)], { encoding: 'utf8', timeout: 10_000 });
  const lines = (check.stderr ?? '').split('\n');
  const end = lines.findIndex((l) => l.startsWith('SyntaxError'));
  return end > 0 ? `\n${lines.slice(0, end).join('\n').trimEnd()}` : '';
}

async function compile(args: CommandArgs): Promise<void> {
  const url = pathToFileURL(resolve(args.modulePath)).href;
  let mod: Record<string, unknown>;
  try {
    // module Node16 keeps import() in the CommonJS build, so ESM and CJS router modules both load.
    mod = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    throw new ManifestError(loadFailure(args.modulePath, err));
  }
  const compiled = compileRouter(definitionOf(mod));
  // The core is the judge of a manifest; a rejection is a PulseConfigError with its message.
  checkManifest(compiled.manifest, args.limits);
  write(args.out, artifactFiles(compiled));
}

/** The core is the judge of a manifest; a rejection is a PulseConfigError with its message. */
function checkManifest(manifest: unknown, limits?: unknown): void {
  createHostCore(resolveOptions({ limits, tools: { manifest } }, 'host', 'static'));
}

function write(out: string, files: Record<string, string>): void {
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
  process.stdout.write(`wrote ${Object.keys(files).join(', ')} to ${out}\n`);
}

/** The TypeScript compiler, from the module's project first, then beside this package. */
function loadTypeScript(modulePath: string): typeof TS {
  for (const from of [resolve(modulePath), __filename]) {
    try {
      return createRequire(from)('typescript') as typeof TS;
    } catch {
      // not installed there
    }
  }
  throw new ManifestError('pulse-mcp build parses the module with the TypeScript compiler, an optional peer dependency that is not installed: npm install --save-dev typescript');
}

function build(args: CommandArgs): void {
  const lowered = lowerRouter(loadTypeScript(args.modulePath), args.modulePath, { router: args.router, target: args.target });
  const compiled = compileRouter(lowered.definition);
  checkManifest(compiled.manifest);
  const { 'manifest.json': manifestFile, ...catalogFiles } = artifactFiles(compiled);
  const { operations, ...head } = lowered.inspection;
  // No report, no evidence: null says so, an empty list would claim a run that sent no case.
  const measured = args.evidence === undefined ? undefined : operationEvidence(readReport(args.evidence), `--evidence ${args.evidence}`, {
    routerId: head.routerId,
    catalogHash: compiled.catalog.hash,
    operations: operations.map((o) => o.name),
  });
  const inspection = { ...head, catalogHash: compiled.catalog.hash, operations: operations.map((o) => ({ ...o, evidence: measured?.get(o.name) ?? null })) };
  const served = nativeBinding(lowered.binding, args.target, compiled, manifestFile);
  write(args.out, { ...catalogFiles, 'entities-inspection.json': `${JSON.stringify(inspection, null, 2)}\n`, ...served });
}

/**
 * For a Native target, the module's exported mcp() binding is the service: its manifest and
 * mcp-binding.json (the binding's host options under the static ceilings), judged by the core as the
 * Native build embeds them. Nothing without a binding or for a JavaScript target.
 */
function nativeBinding(binding: DeclaredBinding | undefined, target: Target | undefined, compiled: CompiledRouter, manifestFile: string): Record<string, string> {
  if (binding === undefined || target === undefined || !target.endsWith('-native')) return {};
  const options = staticOptions({ ...binding });
  createHostCore(resolveOptions({ ...options, tools: { manifest: compiled.manifest } }, 'native', 'static'));
  const file = { formatVersion: 1, kind: 'pulse.mcp-binding', routerId: compiled.catalog.routerId, catalogHash: compiled.catalog.hash, options };
  return { 'manifest.json': manifestFile, 'mcp-binding.json': `${JSON.stringify(file, null, 2)}\n` };
}

function readReport(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ManifestError(`--evidence ${path} cannot be read: ${(e as Error).message}`);
  }
}

/** The version of the package this file belongs to (dist/cjs/compiler in the package, src/compiler in the checkout). */
function version(): string {
  for (let dir = __dirname, i = 0; i < 4; dir = dirname(dir), i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@pulse-compute/mcp' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json at this level
    }
  }
  return 'unknown';
}

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (cmd === '--version') {
      process.stdout.write(`${version()}\n`);
      return 0;
    }
    if (cmd === 'compile') {
      await compile(parseArgs('compile', rest));
      return 0;
    }
    if (cmd === 'build') {
      build(parseArgs('build', rest));
      return 0;
    }
    throw new UsageError(cmd === undefined ? 'no command' : `unknown command ${cmd}`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`pulse-mcp: ${err.message}\n\n${HELP}`);
      return 2;
    }
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof ManifestError || (typeof code === 'string' && code.startsWith('PULSE_ERR_'))) {
      process.stderr.write(`pulse-mcp: ${(err as Error).message}\n`);
      return 1;
    }
    // A declaration builder threw something untyped: still the cause, never a bare "failed".
    process.stderr.write(`pulse-mcp: ${loadFailure(rest.find((a) => !a.startsWith('-')) ?? 'the module', err)}\n`);
    return 1;
  }
}
