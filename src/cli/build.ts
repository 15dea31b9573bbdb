/**
 * `pulse-mcp compile` and `pulse-mcp build` (usage in ./main.ts):
 *   compile evaluates a router module, has the core accept its manifest under the given limits
 *     (its own rules, and whether `tools/list` fits the response budget) and writes manifest.json,
 *     entities-catalog.json and schema-json-registry.json;
 *   build reads the module's declarations without running it (../compiler/lower) and writes the
 *     catalog artifacts and the inspection artifact (with measured evidence from a diff report,
 *     ../compiler/evidence); for a Native target and an exported mcp() binding, also manifest.json
 *     and mcp-binding.json; with --wasm, the Fastly Compute binary of the service the module
 *     declares (./service-module, ./native-service), its Fastly names checked against fastly.toml.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { artifactFiles, compileRouter, ManifestError, TARGETS, targetRefusal, type Target } from '../compiler';
import { operationEvidence } from '../compiler/evidence';
import { lowerRouter } from '../compiler/lower';
import { createHostCore } from '../core/driver';
import { resolveOptions } from '../options';
import type { McpLimits } from '../limits';
import type { RouterDefinition } from '../router/definition';
import { checkServiceNames, readFastlyManifest } from './fastly-manifest';
import { configureNativeService, type NativeBinary } from './native-service';
import { facadeConfig, loadTypeScript, nativeBinding, serviceProfile, staticConfig } from './service-module';
import { Engine } from '../core/engine';
import { buildJavaScriptService } from './javascript-service';
import { CommandError, flagValue, UsageError } from './usage';


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
  /** Where the artifacts go; optional only for a build that writes a binary (--wasm). */
  readonly out?: string;
  readonly limits: { -readonly [K in keyof McpLimits]?: number };
  readonly router?: string;
  readonly target?: Target;
  readonly evidence?: string;
  readonly wasm?: string;
  readonly fastlyToml?: string;
}

/** The targets a Compute binary is built for. */
const COMPUTE_TARGETS: readonly Target[] = ['fastly-native', 'fastly-javascript'];

/** `compile` takes the limit flags, `build` the router, target, binary and manifest flags. */
function parseArgs(command: 'compile' | 'build', args: readonly string[]): CommandArgs {
  let modulePath: string | undefined;
  let out: string | undefined;
  let router: string | undefined;
  let target: Target | undefined;
  let evidence: string | undefined;
  let wasm: string | undefined;
  let fastlyToml: string | undefined;
  const limits: CommandArgs['limits'] = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--out') out = flagValue(args, i++, 'a directory');
    else if (command === 'compile' && arg === '--response-bytes') limits.responseBytes = positiveInt(arg, args[++i]);
    else if (command === 'compile' && arg === '--request-bytes') limits.requestBytes = positiveInt(arg, args[++i]);
    else if (command === 'build' && arg === '--router') router = flagValue(args, i++, 'a router id');
    else if (command === 'build' && arg === '--target') {
      const t = flagValue(args, i++, `one of ${TARGETS.join(', ')}`);
      const refused = targetRefusal('--target', t);
      if (refused !== undefined) throw new UsageError(refused);
      target = t as Target;
    } else if (command === 'build' && arg === '--evidence') evidence = flagValue(args, i++, 'the path of a diff report');
    else if (command === 'build' && arg === '--wasm') wasm = flagValue(args, i++, 'the path of the Compute binary to write (bin/main.wasm)');
    else if (command === 'build' && arg === '--fastly-toml') fastlyToml = flagValue(args, i++, "the path of the service's fastly.toml");
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (modulePath === undefined) modulePath = arg;
    else throw new UsageError(`unexpected argument ${arg}: ${command} takes one module`);
  }
  if (modulePath === undefined) throw new UsageError(`${command} needs a module`);
  if (wasm !== undefined && (target === undefined || !COMPUTE_TARGETS.includes(target))) {
    throw new UsageError(`--wasm writes a Fastly Compute binary: give --target ${COMPUTE_TARGETS.join(' or --target ')}`);
  }
  if (fastlyToml !== undefined && wasm === undefined) throw new UsageError('--fastly-toml is read by a build that writes a binary: give --wasm <file>');
  if (out === undefined && wasm === undefined) throw new UsageError(`${command} needs --out <dir>${command === 'build' ? ' (or --wasm <file> for a Compute binary)' : ''}`);
  return { modulePath, out, limits, router, target, evidence, wasm, fastlyToml };
}

/** The cause of a module that did not load, as Node reports it, without the stack. */
export function loadFailure(path: string, err: unknown): string {
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
  // parseArgs requires --out of compile, which writes no binary.
  write(args.out!, artifactFiles(compiled));
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

async function build(args: CommandArgs): Promise<void> {
  const ts = loadTypeScript(args.modulePath);
  // The facade profile is data, evaluated: there is no router to lower.
  if (args.wasm !== undefined && serviceProfile(ts, args.modulePath) === 'facade') {
    if (args.target !== 'fastly-native') throw new CommandError(`${args.modulePath} exports host options; the host facade runs at the edge as the Fastly Native service: --target fastly-native`);
    if (args.out !== undefined || args.evidence !== undefined || args.router !== undefined) {
      throw new UsageError(`${args.modulePath} exports host options: --out, --evidence and --router read a router module, not a facade`);
    }
    await writeNative(await facadeConfig(args.modulePath), args, args.wasm, 'host facade');
    return;
  }
  const lowered = lowerRouter(ts, args.modulePath, { router: args.router, target: args.target });
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
  const served = nativeBinding(lowered.binding, args.target, compiled);
  if (args.out !== undefined) {
    const bindingFiles: Record<string, string> = served === undefined ? {} : { 'manifest.json': manifestFile, 'mcp-binding.json': served.file };
    write(args.out, { ...catalogFiles, 'entities-inspection.json': `${JSON.stringify(inspection, null, 2)}\n`, ...bindingFiles });
  }
  if (args.wasm === undefined) return;
  // Either service is the module's mcp() binding: a module without one has nothing to answer with.
  if (lowered.binding === undefined) throw new CommandError(`${args.modulePath} binds no router with mcp(): the service is the module's \`export const server = mcp({ router, serverInfo })\``);
  if (args.target === 'fastly-native') await writeNative(staticConfig(served!.options, compiled.manifest), args, args.wasm, 'static binding');
  else await buildJavaScriptService(args.modulePath, args.wasm);
}

/**
 * The Native binary of `configJson`: the Fastly names it uses checked against the service's
 * fastly.toml (beside the module unless --fastly-toml names it), then the prebuilt service
 * configured with it.
 */
async function writeNative(configJson: string, args: CommandArgs, out: string, profile: string): Promise<void> {
  const binary = await nativeServiceBinary(configJson, args.modulePath, args.fastlyToml, out);
  process.stdout.write(`wrote ${out} (${binary.bytes} bytes): the Fastly Native service of ${args.modulePath} (${profile}), imports ${binary.importModules.join(', ')}\n`);
}

/** The service's fastly.toml: `fastlyToml` when given, else the one beside the module. */
export function serviceManifestPath(modulePath: string, fastlyToml: string | undefined): string {
  return resolve(fastlyToml ?? join(dirname(resolve(modulePath)), 'fastly.toml'));
}

/** Writes to `out` the Native binary of `configJson`, the Fastly names it uses checked against the service's fastly.toml first. */
export async function nativeServiceBinary(configJson: string, modulePath: string, fastlyToml: string | undefined, out: string): Promise<NativeBinary> {
  const toml = serviceManifestPath(modulePath, fastlyToml);
  checkServiceNames(Engine.create(configJson).serviceNames(), await readFastlyManifest(toml), toml);
  return configureNativeService(configJson, out, dirname(resolve(modulePath)));
}

function readReport(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ManifestError(`--evidence ${path} cannot be read: ${(e as Error).message}`);
  }
}

/** The module a command names, as given, for messages about it. */
export function moduleArgument(args: readonly string[]): string {
  return args.find((a) => !a.startsWith('-')) ?? 'the module';
}

export async function compileCommand(args: readonly string[]): Promise<void> {
  await compile(parseArgs('compile', args));
}

export async function buildCommand(args: readonly string[]): Promise<void> {
  await build(parseArgs('build', args));
}
