// Shared by the edge scripts: paths, process helpers, bundling TypeScript entry points with esbuild
// (installed with vitest) and the engine configuration of the service an edge module declares.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FASTLY = join(ROOT, 'node_modules', '@fastly', 'cli-linux-x64', 'fastly');
export const WORK = join(ROOT, 'native', 'target', 'edge-work');

export class EdgeError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.error) throw new EdgeError('SPAWN', `cannot run ${cmd}: ${r.error.code ?? 'error'}`);
  if (r.status !== 0) {
    process.stderr.write(r.stdout + r.stderr);
    throw new EdgeError('EXIT', `${cmd} ${args[0]} exited with ${r.status}`);
  }
  return r.stdout;
}

/** Bundles a TypeScript/ESM entry for Node into `outfile` and returns its file URL. */
export async function bundleForNode(entry, outfile, extra = {}) {
  const esbuild = await import('esbuild');
  const { alias, ...rest } = extra;
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // CommonJS sources in the bundle expect `require` and `__filename` (the core loader resolves the
    // package's pulse_core.wasm from it).
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fp } from 'node:url'; const require = __cr(import.meta.url); const __filename = __fp(import.meta.url);",
    },
    ...rest,
    alias: { ...SELF, ...alias },
  });
  return pathToFileURL(outfile).href;
}

/**
 * The package's self-reference resolves to the sources: a module written against the package
 * (edge/context.mjs) and the sources bundled beside it share one copy of the router code, which
 * recognises routers by module-private state.
 */
const SELF = { '@pulse-compute/mcp/pulse': join(ROOT, 'src', 'pulse.ts') };

/** Bundles `source` (a stub importing the sources) into WORK, imports it, runs `use(module, file)`, removes both files. */
async function withStub(name, source, use) {
  mkdirSync(WORK, { recursive: true });
  const stub = join(WORK, `${name}-${Date.now()}-${process.pid}.ts`);
  writeFileSync(stub, source);
  const bundled = stub.replace(/\.ts$/, '.mjs');
  try {
    return await use(await import(await bundleForNode(stub, bundled)), bundled);
  } finally {
    rmSync(stub, { force: true });
    rmSync(bundled, { force: true });
  }
}

/** The names a module exports, read from its syntax (the module is not run). */
function exportedNames(module) {
  const ts = createRequire(import.meta.url)('typescript');
  let text;
  try {
    text = readFileSync(module, 'utf8');
  } catch {
    throw new EdgeError('EDGE_MODULE', `${relative(ROOT, module)} cannot be read`);
  }
  const source = ts.createSourceFile(module, text, ts.ScriptTarget.Latest, false, /\.[cm]?tsx?$/.test(module) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const names = new Set();
  const exported = (n) => n.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
  for (const st of source.statements) {
    if (ts.isVariableStatement(st) && exported(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && exported(st) && st.name) names.add(st.name.text);
    if (ts.isExportAssignment(st)) names.add('default');
    if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) for (const el of st.exportClause.elements) names.add(el.name.text);
  }
  return names;
}

const SHAPES = 'export `const server = mcp({ router, serverInfo })` (the static binding, read by pulse-mcp build) or host `options` whose `tools` are catalog artifacts';

/**
 * The engine configuration of the Native service an edge module declares, by what it exports:
 *   `server` (made by mcp() from /pulse): the static profile. `pulse-mcp build <module> --target
 *     fastly-native` reads the declarations without running the module and writes the manifest and
 *     the binding's options (exact POST /mcp, no allowed Origin, the static ceilings lowered by the
 *     declared limits); the configuration is those options and that manifest;
 *   `options` with catalog-backed `tools` (the artifacts of a backend and its endpoint): the facade
 *     profile, the module evaluated and its options validated as the host adapters validate them;
 *   anything else: an error. Neither profile stands in for the other.
 * Returns the profile and `config(overrides)`: the configuration JSON, `overrides` (e.g.
 * `{ legacyProtocol: '2025-06-18' }` for the legacy-enabled variant) replacing the module's options.
 */
export async function edgeService(module) {
  const path = resolve(module);
  const names = exportedNames(path);
  const shown = path.startsWith(`${ROOT}/`) ? relative(ROOT, path) : path;
  if (names.has('server') && names.has('options')) throw new EdgeError('EDGE_MODULE', `${shown} exports both server and options; an edge module is one service: ${SHAPES}`);
  if (names.has('server')) return staticService(path, shown);
  if (names.has('options')) return facadeService(path, shown);
  throw new EdgeError('EDGE_MODULE', `${shown} exports ${names.size ? [...names].sort().join(', ') : 'nothing'}; an edge module must ${SHAPES}`);
}

/** Shorthand for `(await edgeService(module)).config(overrides)`. */
export async function configFor(module, { overrides = {} } = {}) {
  return (await edgeService(module)).config(overrides);
}

const STATIC_STUB = [
  `import { main } from ${JSON.stringify(join(ROOT, 'src', 'compiler', 'cli'))};`,
  `import { resolveOptions } from ${JSON.stringify(join(ROOT, 'src', 'options'))};`,
  '// The binding as the Native service embeds it: the static binding, configured for the Native target.',
  "export const configJson = (options, manifest) => resolveOptions({ ...options, tools: { manifest } }, 'native', 'static').configJson;",
  '// Run as a script, the bundle is the pulse-mcp command of these sources.',
  'if (process.argv[1] === __filename) void main(process.argv.slice(2)).then((code) => { process.exitCode = code; });',
].join('\n');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** The lowering stub, bundled once per process (it is the pulse-mcp command of these sources). */
let lowering;
function loweringStub() {
  lowering ??= (async () => {
    mkdirSync(WORK, { recursive: true });
    // Bundles of processes that are gone (a test worker is ended without its exit hooks).
    for (const f of readdirSync(WORK)) {
      const pid = /^lower-(\d+)\.mjs$/.exec(f)?.[1];
      if (pid !== undefined && !alive(Number(pid))) rmSync(join(WORK, f), { force: true });
    }
    const stub = join(WORK, `lower-${process.pid}.ts`);
    const cli = stub.replace(/\.ts$/, '.mjs');
    writeFileSync(stub, STATIC_STUB);
    process.once('exit', () => rmSync(cli, { force: true }));
    try {
      return { lib: await import(await bundleForNode(stub, cli)), cli };
    } finally {
      rmSync(stub, { force: true });
    }
  })();
  return lowering;
}

async function staticService(path, shown) {
  const { lib, cli } = await loweringStub();
  const out = join(WORK, `lowered-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  try {
    const r = spawnSync(process.execPath, [cli, 'build', path, '--target', 'fastly-native', '--out', out], { encoding: 'utf8' });
    if (r.status !== 0) {
      const reason = `${r.stderr ?? ''}`.trim().replace(/^pulse-mcp: /, '') || `exited with ${r.status}`;
      if (/ha(s|ve) a JavaScript handler/.test(reason)) {
        throw new EdgeError('NATIVE_INELIGIBLE', `${reason}. The Native service runs only static, corpus and backend handlers; a router with JavaScript handlers ships as the Fastly JavaScript package: npm run edge:build:js`);
      }
      throw new EdgeError('NOT_BUILDABLE', `pulse-mcp build ${shown} --target fastly-native: ${reason}`);
    }
    if (!existsSync(join(out, 'mcp-binding.json'))) {
      throw new EdgeError('EDGE_MODULE', `${shown} exports server, but not as a call of mcp() from @pulse-compute/mcp/pulse binding its router: write \`export const server = mcp({ router, serverInfo })\``);
    }
    const binding = JSON.parse(readFileSync(join(out, 'mcp-binding.json'), 'utf8'));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    return { profile: 'static', options: binding.options, manifest, config: (overrides = {}) => lib.configJson({ ...binding.options, ...overrides }, manifest) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function facadeService(path, shown) {
  const source = [
    `import * as served from ${JSON.stringify(path)};`,
    `import { resolveOptions } from ${JSON.stringify(join(ROOT, 'src', 'options'))};`,
    'export const options = served.options;',
    "export const configJson = (options) => resolveOptions(options, 'native').configJson;",
  ].join('\n');
  return withStub('facade', source, (lib) => {
    const tools = lib.options?.tools;
    if (typeof tools !== 'object' || tools === null || !('catalog' in tools)) {
      throw new EdgeError('EDGE_MODULE', `${shown} exports options without catalog-backed tools ({ catalog, schemas, routerId, target, endpoint }); a router is served by the static binding: ${SHAPES}`);
    }
    return { profile: 'facade', options: lib.options, config: (overrides = {}) => lib.configJson({ ...lib.options, ...overrides }) };
  });
}

/**
 * The static binding's Native configuration for a module exporting `router` and `options` (the
 * options of its mcp() binding), evaluated: for fixtures that build their declarations with their
 * own functions, which the lowerer refuses to read (examples/conformance/native.mjs). The deployed
 * service never comes this way. The binding's ceilings are applied as for a built binding
 * (staticOptions); `overrides` replace options. A JavaScript handler fails closed.
 */
export async function boundRouterConfig(module, { overrides = {} } = {}) {
  const source = [
    `import * as served from ${JSON.stringify(resolve(module))};`,
    `import { compileRouter } from ${JSON.stringify(join(ROOT, 'src', 'compiler'))};`,
    `import { staticOptions } from ${JSON.stringify(join(ROOT, 'src', 'router', 'bind'))};`,
    `import { resolveOptions } from ${JSON.stringify(join(ROOT, 'src', 'options'))};`,
    `import { assertNativeEligible } from ${JSON.stringify(join(ROOT, 'src', 'router'))};`,
    `import { routerDefinition } from ${JSON.stringify(join(ROOT, 'src', 'router', 'router'))};`,
    'export function configJson(overrides) {',
    '  assertNativeEligible(served.router);',
    '  const manifest = compileRouter(routerDefinition(served.router)).manifest;',
    "  return resolveOptions({ ...staticOptions({ ...served.options, ...overrides }), tools: { manifest } }, 'native', 'static').configJson;",
    '}',
  ].join('\n');
  return withStub('bound', source, (lib) => {
    try {
      return lib.configJson(overrides);
    } catch (e) {
      if (e && e.code === 'PULSE_ERR_NATIVE_INELIGIBLE') throw new EdgeError('NATIVE_INELIGIBLE', `${module}: the router has JavaScript handlers; the Native service runs only static, corpus and backend handlers`);
      throw e;
    }
  });
}

/** Build recipe of the Native binary; part of every cache key. */
export const RECIPE = 'opt-level z, simd128, 64 KiB stack, wizer with the configuration wiped and freed memory zeroed, wasm-opt -Oz';

/** Hash of everything a Native build depends on besides its configuration (core and edge sources). */
export function nativeSourcesHash() {
  const h = createHash('sha256').update(RECIPE);
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else h.update(p).update(readFileSync(p));
    }
  };
  for (const d of ['core', 'edge']) walk(join(ROOT, 'native', d));
  h.update(readFileSync(join(ROOT, 'native', 'Cargo.lock'))).update(readFileSync(join(ROOT, 'native', 'Cargo.toml')));
  return h.digest('hex');
}

/** What the diff runner compares to tell whether bin/main.wasm is current. */
export function nativeBuildKey(configJson) {
  return createHash('sha256').update(nativeSourcesHash()).update(configJson).digest('hex');
}

/**
 * One esbuild ES-module bundle for a runtime without Node built-ins (js-compute, workerd); `extra`
 * adds options such as `external`.
 */
export async function bundleForRuntime(entry, outfile, extra = {}) {
  const esbuild = await import('esbuild');
  const { alias, ...rest } = extra;
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    logLevel: 'error',
    loader: { '.json': 'json' },
    ...rest,
    alias: { ...SELF, ...alias },
  });
}

/** The esbuild bundle of the Fastly JavaScript entry (edge/fastly-js.ts); returns its sha256. */
export async function bundleJsEntry(outfile) {
  await bundleForRuntime(join(ROOT, 'edge', 'fastly-js.ts'), outfile);
  return createHash('sha256').update(readFileSync(outfile)).digest('hex');
}
