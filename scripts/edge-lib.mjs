// Shared by the edge scripts: paths, process helpers, bundling TypeScript entry points with esbuild
// (installed with vitest) and computing an engine configuration from a router module.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
    ...extra,
  });
  return pathToFileURL(outfile).href;
}

/**
 * Engine configuration JSON for a router module exporting `router` and `options` (edge/router.ts
 * shape), or only `options` whose `tools` are catalog-backed (the artifacts of a backend and its
 * endpoint), through the same option validation the TypeScript hosts use. Native targets first
 * require every operation of a router to be native. `overrides` (e.g. `{ legacyProtocol: '2025-06-18' }` for
 * the legacy-enabled variant) replace the module's options before validation.
 */
export async function configFor(routerModule, { native, overrides = {} }) {
  const stub = join(WORK, `config-${Date.now()}-${process.pid}.ts`);
  mkdirSync(WORK, { recursive: true });
  writeFileSync(
    stub,
    [
      `import * as served from ${JSON.stringify(routerModule)};`,
      `import { toolSource, assertNativeEligible } from ${JSON.stringify(join(ROOT, 'src', 'router'))};`,
      `import { resolveOptions } from ${JSON.stringify(join(ROOT, 'src', 'options'))};`,
      'export function configJson(native) {',
      '  const { router, options = {} } = served;',
      `  const overrides = ${JSON.stringify(overrides)};`,
      "  const target = native ? 'native' : 'host';",
      '  // Catalog-backed tools: the module exports no router, only options.tools from the artifacts.',
      '  if (router === undefined) return resolveOptions({ ...options, ...overrides }, target).configJson;',
      '  if (native) assertNativeEligible(router);',
      '  return resolveOptions({ ...options, ...overrides, tools: toolSource(router) }, target).configJson;',
      '}',
    ].join('\n'),
  );
  const bundled = stub.replace(/\.ts$/, '.mjs');
  let mod;
  try {
    // A router module written against the package (examples/) and this stub must share one copy of
    // the router code: routers are recognised by module-private state.
    const alias = { '@pulse-compute/mcp/pulse': join(ROOT, 'src', 'pulse.ts') };
    mod = await import(await bundleForNode(stub, bundled, { alias }));
  } finally {
    rmSync(stub, { force: true });
    rmSync(bundled, { force: true });
  }
  try {
    return mod.configJson(native);
  } catch (e) {
    if (e && e.code === 'PULSE_ERR_NATIVE_INELIGIBLE') {
      throw new EdgeError(
        'NATIVE_INELIGIBLE',
        'this router has JavaScript handlers (or operations not eligible for fastly-native); the Native service runs only static, corpus and backend handlers. Build the Fastly JavaScript package instead: npm run edge:build:js',
      );
    }
    throw e;
  }
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
    ...extra,
  });
}

/** The esbuild bundle of the Fastly JavaScript entry (edge/fastly-js.ts); returns its sha256. */
export async function bundleJsEntry(outfile) {
  await bundleForRuntime(join(ROOT, 'edge', 'fastly-js.ts'), outfile);
  return createHash('sha256').update(readFileSync(outfile)).digest('hex');
}
