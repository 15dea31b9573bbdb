/**
 * The Fastly Native binary of a service, from the package alone: the Native service ships prebuilt
 * and without a configuration (wasm/pulse_native_service.wasm, built from native/edge by
 * scripts/build-core.mjs), and Wizer runs its `wizer.initialize` with the engine configuration on
 * standard input. The engine built from it is snapshotted into the binary, so no request parses the
 * configuration; nothing is compiled, and no Rust toolchain, repository or network is needed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { computeImports } from './compute-binary';
import { CommandError } from './usage';
import { packageRoot } from './package';

/** Wizer's version, pinned: the snapshot is what Wizer writes, so one build gives one binary. */
export const WIZER_VERSION = '7.0.5';
const WIZER = '@bytecodealliance/wizer';
/** Wizer's own limit on how long pre-initialization may take; building an engine takes milliseconds. */
const WIZER_TIMEOUT_MS = 120_000;

/** The prebuilt, unconfigured Native service inside this package. */
export function nativeServicePath(): string {
  return join(packageRoot(), 'wasm', 'pulse_native_service.wasm');
}

/**
 * Wizer's executable: the optional peer installed in the service's project (searched from
 * `project` up), else beside this package. Its version must be the pinned one.
 */
async function wizerExecutable(project: string): Promise<string> {
  // --save-exact: a range would let a later install take another version, which the build refuses.
  const install = `npm install --save-dev --save-exact ${WIZER}@${WIZER_VERSION}`;
  for (const from of [join(resolve(project), 'package.json'), __filename]) {
    let manifest: string;
    try {
      manifest = createRequire(from).resolve(`${WIZER}/package.json`);
    } catch {
      continue;
    }
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
    if (version !== WIZER_VERSION) {
      throw new CommandError(`${WIZER} ${String(version)} is installed; the Native build pre-initialises with ${WIZER_VERSION}: ${install}`);
    }
    // Its entry exports the path of the platform's binary (an optional dependency of its own).
    try {
      const entry = (await import(pathToFileURL(join(dirname(manifest), 'index.js')).href)) as { default?: unknown };
      if (typeof entry.default === 'string' && existsSync(entry.default)) return entry.default;
    } catch {
      // the platform package is missing: reported below
    }
    throw new CommandError(`${WIZER} ${WIZER_VERSION} has no binary for ${process.platform}-${process.arch} here (its platform package was not installed; reinstall without --no-optional)`);
  }
  throw new CommandError(`the Native build pre-initialises the service with Wizer, an optional peer dependency that is not installed: ${install}`);
}

export interface NativeBinary {
  readonly path: string;
  readonly bytes: number;
  /** The modules it imports: `fastly_*` and `wasi_snapshot_preview1` only. */
  readonly importModules: readonly string[];
}

/**
 * Writes to `out` the Native service configured with `configJson` (an engine configuration the core
 * accepts) and checks the result is a Compute module. `project` is where Wizer is looked for first.
 * A refusal is a `CommandError` with Wizer's or the service's reason.
 */
export async function configureNativeService(configJson: string, out: string, project: string): Promise<NativeBinary> {
  const service = nativeServicePath();
  if (!existsSync(service)) throw new CommandError(`the package has no prebuilt Native service (${service}); reinstall @pulse-compute/mcp`);
  const wizer = await wizerExecutable(project);
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
  // Written beside the target and renamed: a failed build never leaves a binary that looks whole.
  const partial = `${target}.partial-${process.pid}`;
  try {
    // WASI only for the configuration on standard input and libc's start-up: no environment, no
    // directories, so nothing of this machine is captured in the snapshot.
    const r = spawnSync(wizer, ['--allow-wasi', '--inherit-env', 'false', '--wasm-simd', 'true', '-o', partial, service], {
      input: configJson,
      encoding: 'utf8',
      timeout: WIZER_TIMEOUT_MS,
      maxBuffer: 1 << 20,
    });
    if (r.error !== undefined) throw new CommandError(`Wizer (${wizer}) could not run: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}`);
    if (r.status !== 0) {
      // The service prints its own reason as "pulse-edge: …"; Wizer's trap report follows it.
      const reason = /^pulse-edge: (.*)$/m.exec(r.stderr ?? '')?.[1] ?? (r.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
      throw new CommandError(`the Native service could not be configured: ${reason || `Wizer exited with ${r.status}`}`);
    }
    const bytes = readFileSync(partial);
    const importModules = await computeImports(bytes, 'Wizer');
    renameSync(partial, target);
    return { path: target, bytes: bytes.length, importModules };
  } finally {
    rmSync(partial, { force: true });
  }
}
