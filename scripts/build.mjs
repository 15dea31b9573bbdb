#!/usr/bin/env node
// Builds the package: tsc → dist/cjs (CommonJS + declarations), Node's entries over one bundle of
// them (dist/node), then one thin ESM wrapper per
// package.json export (dist/esm/*.mjs + .d.mts) re-exporting the CommonJS named exports, so
// `import` and `require` share one implementation and one copy of its state. The glue derived from
// the committed core (scripts/core-glue.mjs) is refreshed first; its CommonJS wasm2js module is
// minified beside the loader (loaded only where WebAssembly is absent, it is 45 % of its source size
// minified), so the package carries the wasm2js core once and the wasm binary only as
// wasm/pulse_core.wasm. The Node Native host goes to dist/cjs/cli/compute-host as ES modules with
// smol-toml bundled in. The build happens in a private directory that replaces dist/ at the end, so a
// concurrent reader never sees a half-built dist.
//   --if-needed  skip when dist is newer than every source file (used by `npm start`).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GLUE, writeCoreGlue } from './core-glue.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

// Before the freshness check: glue derived from a newer wasm/ makes src/ newer than dist.
writeCoreGlue();

if (process.argv.includes('--if-needed') && existsSync(STAMP)) {
  const inputs = Math.max(
    newestMtime(join(ROOT, 'src')),
    ...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(join(ROOT, f)).mtimeMs),
  );
  if (statSync(STAMP).mtimeMs >= inputs) process.exit(0);
}

const STAGE = join(ROOT, `.dist-stage-${process.pid}`);
rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
const tsc = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(STAGE, 'cjs')],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) {
  rmSync(STAGE, { recursive: true, force: true });
  process.stderr.write('build: tsc failed\n');
  process.exit(1);
}

// tsc emits no JavaScript sources; the loader requires this one at the same relative path.
const wasm2js = join(STAGE, 'cjs', relative(join(ROOT, 'src'), join(ROOT, GLUE.wasm2js)));
mkdirSync(dirname(wasm2js), { recursive: true });
const require = createRequire(import.meta.url);
writeFileSync(wasm2js, require('esbuild').transformSync(readFileSync(join(ROOT, GLUE.wasm2js), 'utf8'), { minify: true, format: 'cjs', target: 'es2020' }).code);

// The Node Native host, which the CLI runs Compute modules in, ships as plain ESM beside the CLI:
// each module one file as written, importing its siblings; smol-toml (a development dependency) is
// bundled into the modules that use it, so the shipped host imports only node: built-ins and itself.
// Splitting keeps one copy of it should a second module import it (a shared chunk, named by content).
const HOST = join(ROOT, 'src', 'cli', 'compute-host');
const hostOut = join(STAGE, 'cjs', relative(join(ROOT, 'src'), HOST));
const hostModules = readdirSync(HOST).filter((f) => f.endsWith('.mjs')).sort();
await require('esbuild').build({
  entryPoints: hostModules.map((f) => join(HOST, f)),
  outdir: hostOut,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'shared-[hash]',
  // Module names in comments relative to the checkout, the same on every build.
  absWorkingDir: ROOT,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [
    {
      name: 'host-siblings',
      setup: (b) =>
        b.onResolve({ filter: /^\./ }, (a) => (dirname(a.importer) === HOST && hostModules.includes(relative(HOST, resolve(HOST, a.path))) ? { path: a.path, external: true } : undefined)),
    },
  ],
  logLevel: 'error',
});
// The Viceroy-compatible launcher, for `fastly compute serve --viceroy-path=…`.
writeFileSync(join(hostOut, 'viceroy'), readFileSync(join(HOST, 'viceroy')));
chmodSync(join(hostOut, 'viceroy'), 0o755);

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
mkdirSync(join(STAGE, 'esm'), { recursive: true });
/** package.json paths point into dist/; while building they live in the stage directory. */
const staged = (p) => join(STAGE, relative(DIST, join(ROOT, p)));
/** A path from `from`'s directory to `to`, as `require` takes it. */
const requirePath = (from, to) => {
  const spec = relative(dirname(from), to).split('\\').join('/');
  return spec.startsWith('.') ? spec : `./${spec}`;
};

// For Node (the `node` condition of an export), the exports' code as one CommonJS file: a cold
// process reads, wraps and compiles one file instead of one per module (about 6 ms of a Node
// process's start). Each module keeps its own lazy wrapper, so an entry evaluates only what it
// imports, and one file serves every entry, so a class is one class whichever entry it came through.
// Other runtimes' bundlers keep the per-module files (they tree-shake them, and the Node adapter's
// `node:http` import stays out of their way); so does `/otel`, whose peer a Node user's own bundler
// would otherwise have to resolve.
const faces = [];
const viewed = [];
for (const [key, target] of Object.entries(pkg.exports)) {
  if (typeof target !== 'object' || !target.import || !target.require) continue;
  if (!existsSync(staged(target.require))) continue; // an entry whose source is not written yet
  faces.push(target);
  if (target.node !== undefined) {
    viewed.push([key, target]);
    faces.push(target.node);
  }
}
const BUNDLE = join(STAGE, 'node', 'bundle.js');
mkdirSync(dirname(BUNDLE), { recursive: true });
const getters = viewed.map(([key, t]) => `get ${JSON.stringify(key)}() { return require(${JSON.stringify(requirePath(BUNDLE, staged(t.require)))}); }`);
await require('esbuild').build({
  stdin: { contents: `module.exports = { ${getters.join(', ')} };\n`, resolveDir: dirname(BUNDLE), sourcefile: 'exports.js', loader: 'js' },
  outfile: BUNDLE,
  // Module names in the bundle relative to dist/cjs, the same on every build.
  absWorkingDir: join(STAGE, 'cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Peers stay the user's; the wasm2js core stays its own file, read only where WebAssembly is absent.
  packages: 'external',
  plugins: [{ name: 'wasm2js', setup: (b) => b.onResolve({ filter: /core-wasm2js\.cjs$/ }, () => ({ path: requirePath(BUNDLE, wasm2js), external: true })) }],
  logLevel: 'error',
});
for (const [key, t] of viewed) {
  const view = staged(t.node.require);
  writeFileSync(view, `// Generated by scripts/build.mjs: the ${key} export, from the bundle.\nmodule.exports = require(${JSON.stringify(requirePath(view, BUNDLE))})[${JSON.stringify(key)}];\n`);
  // Its declarations are the per-module entry's.
  writeFileSync(view.replace(/\.js$/, '.d.ts'), `export * from '${requirePath(view, staged(t.require)).replace(/\.js$/, '')}';\n`);
}
const written = [];
for (const face of faces) {
  const cjsPath = staged(face.require);
  const esmPath = staged(face.import);
  const names = Object.keys(require(cjsPath)).filter((n) => n !== '__esModule' && n !== 'default');
  const from = requirePath(esmPath, cjsPath);
  writeFileSync(
    esmPath,
    `// Generated by scripts/build.mjs: ESM face of the CommonJS implementation.\n` +
      `import cjs from '${from}';\n` +
      (names.length ? `export const { ${names.join(', ')} } = cjs;\n` : ''),
  );
  writeFileSync(esmPath.replace(/\.mjs$/, '.d.mts'), `export * from '${from}';\n`);
  written.push(relative(STAGE, esmPath));
}
writeFileSync(join(STAGE, '.build-stamp'), '');
rmSync(DIST, { recursive: true, force: true });
// npm marks the bin executable on install; this makes the checkout's copy runnable too.
chmodSync(join(STAGE, 'cjs', 'cli.js'), 0o755);
renameSync(STAGE, DIST);
process.stdout.write(`build: dist/cjs, dist/node/bundle.js + ${written.map((w) => `dist/${w}`).join(', ')}\n`);
