/**
 * A service module and the engine configuration of the Fastly Native service it declares. What the
 * module exports chooses the profile, never a fallback:
 *   `server` made by mcp() from /pulse: the static binding. Its declarations are read without
 *     running the module (./lower via the build command's lowering) and configured as the Native
 *     service embeds the binding: exact POST /mcp, every Origin refused, the static ceilings lowered
 *     by the binding's limits;
 *   `options` whose `tools` are catalog artifacts: the host facade at the edge. The module is
 *     evaluated (its options are data) and the options validated as the host adapters validate
 *     them, secrets given as secret-store references;
 *   anything else, or both: refused.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as TS from 'typescript';
import { compileRouter, ManifestError, type CompiledRouter, type Target } from '../compiler';
import { lowerRouter, type DeclaredBinding } from '../compiler/lower';
import { createHostCore } from '../core/driver';
import { resolveOptions } from '../options';
import { staticOptions } from '../router/bind';
import { CommandError } from './usage';

export type ServiceProfile = 'static' | 'facade';

const SHAPES = 'export `const server = mcp({ router, serverInfo })` (the static binding) or host `options` whose `tools` are catalog artifacts';

/** The names a module exports, read from its syntax (the module is not run). */
export function exportedNames(ts: typeof TS, path: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CommandError(`${path} cannot be read`);
  }
  const kind = /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const names = new Set<string>();
  const exported = (n: TS.Node) => ts.canHaveModifiers(n) && ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
  for (const st of source.statements) {
    if (ts.isVariableStatement(st) && exported(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && exported(st) && st.name) names.add(st.name.text);
    if (ts.isExportAssignment(st)) names.add('default');
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) for (const el of st.exportClause.elements) names.add(el.name.text);
  }
  return names;
}

/** The profile `path` declares, by what it exports. */
export function serviceProfile(ts: typeof TS, path: string): ServiceProfile {
  const names = exportedNames(ts, path);
  if (names.has('server') && names.has('options')) throw new CommandError(`${path} exports both server and options; a service module is one service: ${SHAPES}`);
  if (names.has('server')) return 'static';
  if (names.has('options')) return 'facade';
  throw new CommandError(`${path} exports ${names.size > 0 ? [...names].sort().join(', ') : 'nothing'}; a service module must ${SHAPES}`);
}

/**
 * The TypeScript compiler (an optional peer dependency), from the module's project first, then
 * beside this package. Its JavaScript API parses the module: TypeScript 7, a native compiler,
 * has none, so the peer range stops below it.
 */
export function loadTypeScript(modulePath: string): typeof TS {
  const install = 'npm install --save-dev typescript@5';
  for (const from of [resolve(modulePath), __filename]) {
    let ts: Partial<typeof TS>;
    try {
      ts = createRequire(from)('typescript') as Partial<typeof TS>;
    } catch {
      continue; // not installed there
    }
    if (typeof ts.createSourceFile !== 'function') {
      throw new ManifestError(`pulse-mcp build reads the module with the TypeScript compiler's API, which typescript ${String(ts.version)} does not have (TypeScript 5 does): ${install}`);
    }
    return ts as typeof TS;
  }
  throw new ManifestError(`pulse-mcp build parses the module with the TypeScript compiler, an optional peer dependency that is not installed: ${install}`);
}

/**
 * For a Native target, the module's exported mcp() binding is the service: the binding's host
 * options under the static ceilings, judged by the core as the Native service embeds them, and
 * mcp-binding.json recording them. Nothing without a binding or for a JavaScript target.
 */
export function nativeBinding(binding: DeclaredBinding | undefined, target: Target | undefined, compiled: CompiledRouter): { options: Record<string, unknown>; file: string } | undefined {
  if (binding === undefined || target === undefined || !target.endsWith('-native')) return undefined;
  const options = staticOptions({ ...binding }) as Record<string, unknown>;
  createHostCore(resolveOptions({ ...options, tools: { manifest: compiled.manifest } }, 'native', 'static'));
  const file = { formatVersion: 1, kind: 'pulse.mcp-binding', routerId: compiled.catalog.routerId, catalogHash: compiled.catalog.hash, options };
  return { options, file: `${JSON.stringify(file, null, 2)}\n` };
}

/** The static binding's Native configuration: its lowered options with its manifest. */
export function staticConfig(bindingOptions: Record<string, unknown>, manifest: unknown): string {
  return resolveOptions({ ...bindingOptions, tools: { manifest } }, 'native', 'static').configJson;
}

/** The facade module's `options`, evaluated; refused unless its tools are catalog-backed. */
async function facadeOptions(path: string): Promise<Record<string, unknown>> {
  let mod: { options?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { options?: unknown };
  } catch (e) {
    throw new CommandError(`${path} did not load: ${(e as Error).message}`);
  }
  const options = mod.options;
  const tools = (options as { tools?: unknown } | null)?.tools;
  if (typeof tools !== 'object' || tools === null || !('catalog' in tools)) {
    throw new CommandError(`${path} exports options without catalog-backed tools ({ catalog, schemas, routerId, target, endpoint, backend }); a router is served by the static binding: ${SHAPES}`);
  }
  return options as Record<string, unknown>;
}

/** The facade module's Native configuration. */
export async function facadeConfig(path: string): Promise<string> {
  return resolveOptions(await facadeOptions(path), 'native').configJson;
}

export interface ServiceConfig {
  readonly profile: ServiceProfile;
  /** The options the configuration is resolved from (the static binding's carry its manifest as `tools`). */
  readonly options: Record<string, unknown>;
  readonly configJson: string;
}

/**
 * The engine configuration of the Native service `path` declares, whichever its profile; `overrides`
 * replace the binding's or the facade's options (the legacy-enabled variant of a service, a log
 * endpoint for a test).
 */
export async function serviceConfig(path: string, overrides: Record<string, unknown> = {}): Promise<ServiceConfig> {
  const ts = loadTypeScript(path);
  if (serviceProfile(ts, path) === 'facade') {
    const options = { ...(await facadeOptions(path)), ...overrides };
    return { profile: 'facade', options, configJson: resolveOptions(options, 'native').configJson };
  }
  const lowered = lowerRouter(ts, path, { target: 'fastly-native' });
  const compiled = compileRouter(lowered.definition);
  const served = nativeBinding(lowered.binding, 'fastly-native', compiled);
  if (served === undefined) throw new CommandError(`${path} binds no router with mcp(): the Native service is the module's \`export const server = mcp({ router, serverInfo })\``);
  const options = { ...served.options, ...overrides, tools: { manifest: compiled.manifest } };
  return { profile: 'static', options, configJson: resolveOptions(options, 'native', 'static').configJson };
}
