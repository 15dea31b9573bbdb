// Shared by the edge scripts: paths, process helpers, bundling TypeScript entry points with esbuild
// (installed with vitest) and the engine configuration of the service an edge module declares.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCoreGlue } from './core-glue.mjs';

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
  writeCoreGlue();
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

/**
 * The command line's modules, from the built package (dist/cjs/cli): the repository builds its
 * Compute binaries exactly as a package user does, from the shipped Native service. The package is
 * built first when its sources changed (scripts/build.mjs --if-needed: quiet and fast otherwise).
 */
let cliModules;
export function packageCli() {
  if (cliModules === undefined) {
    run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--if-needed'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const require = createRequire(import.meta.url);
    cliModules = {
      serviceModule: require(join(ROOT, 'dist', 'cjs', 'cli', 'service-module.js')),
      nativeService: require(join(ROOT, 'dist', 'cjs', 'cli', 'native-service.js')),
    };
  }
  return cliModules;
}

/**
 * The Native service an edge module declares (`serviceConfig` in src/cli/service-module.ts: a
 * `server` made by mcp() is the static binding, read without running the module; host `options`
 * with catalog-backed tools are the facade, evaluated; anything else is refused). Returns its
 * profile, the options its configuration is resolved from, and `config(overrides)`: the engine
 * configuration JSON, `overrides` (e.g. `{ legacyProtocol: '2025-06-18' }` for the legacy-enabled
 * variant) replacing the module's options.
 */
export async function edgeService(module) {
  const { serviceModule } = packageCli();
  const path = resolve(module);
  const { profile, options, configJson } = await serviceModule.serviceConfig(path);
  const config = async (overrides = {}) => (Object.keys(overrides).length === 0 ? configJson : (await serviceModule.serviceConfig(path, overrides)).configJson);
  return { profile, options, config };
}

/** Shorthand for `(await edgeService(module)).config(overrides)`. */
export async function configFor(module, { overrides = {} } = {}) {
  return (await edgeService(module)).config(overrides);
}

/**
 * The package's Native service configured with `configJson`, written to `out` (Wizer from this
 * repository's dev dependencies); returns its size and import modules.
 */
export async function nativeBinary(configJson, out) {
  return packageCli().nativeService.configureNativeService(configJson, out, ROOT);
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

/**
 * One esbuild ES-module bundle for a runtime without Node built-ins (js-compute, workerd); `extra`
 * adds options such as `external`.
 */
export async function bundleForRuntime(entry, outfile, extra = {}) {
  writeCoreGlue();
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

/**
 * What the Fastly JavaScript package is built from, as a sha256: the esbuild bundle of the deployed
 * service (edge/context.mjs and the sources it imports) and the build that writes its fetch entry.
 */
export async function bundleJsEntry(outfile) {
  await bundleForRuntime(join(ROOT, 'edge', 'context.mjs'), outfile);
  return createHash('sha256').update(readFileSync(outfile)).update(readFileSync(join(ROOT, 'src', 'cli', 'javascript-service.ts'))).digest('hex');
}
