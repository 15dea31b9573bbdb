"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WIZER_VERSION = void 0;
exports.nativeServicePath = nativeServicePath;
exports.configureNativeService = configureNativeService;
/**
 * The Fastly Native binary of a service, from the package alone: the Native service ships prebuilt
 * and without a configuration (wasm/pulse_native_service.wasm, built from native/edge by
 * scripts/build-core.mjs), and Wizer runs its `wizer.initialize` with the engine configuration on
 * standard input. The engine built from it is snapshotted into the binary, so no request parses the
 * configuration; nothing is compiled, and no Rust toolchain, repository or network is needed.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_module_1 = require("node:module");
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const compute_binary_1 = require("./compute-binary");
const usage_1 = require("./usage");
const package_1 = require("./package");
/** Wizer's version, pinned: the snapshot is what Wizer writes, so one build gives one binary. */
exports.WIZER_VERSION = '7.0.5';
const WIZER = '@bytecodealliance/wizer';
/** Wizer's own limit on how long pre-initialization may take; building an engine takes milliseconds. */
const WIZER_TIMEOUT_MS = 120_000;
/** The prebuilt, unconfigured Native service inside this package. */
function nativeServicePath() {
    return (0, node_path_1.join)((0, package_1.packageRoot)(), 'wasm', 'pulse_native_service.wasm');
}
/**
 * Wizer's executable: the optional peer installed in the service's project (searched from
 * `project` up), else beside this package. Its version must be the pinned one.
 */
async function wizerExecutable(project) {
    // --save-exact: a range would let a later install take another version, which the build refuses.
    const install = `npm install --save-dev --save-exact ${WIZER}@${exports.WIZER_VERSION}`;
    for (const from of [(0, node_path_1.join)((0, node_path_1.resolve)(project), 'package.json'), __filename]) {
        let manifest;
        try {
            manifest = (0, node_module_1.createRequire)(from).resolve(`${WIZER}/package.json`);
        }
        catch {
            continue;
        }
        const { version } = JSON.parse((0, node_fs_1.readFileSync)(manifest, 'utf8'));
        if (version !== exports.WIZER_VERSION) {
            throw new usage_1.CommandError(`${WIZER} ${String(version)} is installed; the Native build pre-initialises with ${exports.WIZER_VERSION}: ${install}`);
        }
        // Its entry exports the path of the platform's binary (an optional dependency of its own).
        try {
            const entry = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.join)((0, node_path_1.dirname)(manifest), 'index.js')).href));
            if (typeof entry.default === 'string' && (0, node_fs_1.existsSync)(entry.default))
                return entry.default;
        }
        catch {
            // the platform package is missing: reported below
        }
        throw new usage_1.CommandError(`${WIZER} ${exports.WIZER_VERSION} has no binary for ${process.platform}-${process.arch} here (its platform package was not installed; reinstall without --no-optional)`);
    }
    throw new usage_1.CommandError(`the Native build pre-initialises the service with Wizer, an optional peer dependency that is not installed: ${install}`);
}
/**
 * Writes to `out` the Native service configured with `configJson` (an engine configuration the core
 * accepts) and checks the result is a Compute module. `project` is where Wizer is looked for first.
 * A refusal is a `CommandError` with Wizer's or the service's reason.
 */
async function configureNativeService(configJson, out, project) {
    const service = nativeServicePath();
    if (!(0, node_fs_1.existsSync)(service))
        throw new usage_1.CommandError(`the package has no prebuilt Native service (${service}); reinstall @pulse-compute/mcp`);
    const wizer = await wizerExecutable(project);
    const target = (0, node_path_1.resolve)(out);
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(target), { recursive: true });
    // Written beside the target and renamed: a failed build never leaves a binary that looks whole.
    const partial = `${target}.partial-${process.pid}`;
    try {
        // WASI only for the configuration on standard input and libc's start-up: no environment, no
        // directories, so nothing of this machine is captured in the snapshot.
        const r = (0, node_child_process_1.spawnSync)(wizer, ['--allow-wasi', '--inherit-env', 'false', '--wasm-simd', 'true', '-o', partial, service], {
            input: configJson,
            encoding: 'utf8',
            timeout: WIZER_TIMEOUT_MS,
            maxBuffer: 1 << 20,
        });
        if (r.error !== undefined)
            throw new usage_1.CommandError(`Wizer (${wizer}) could not run: ${r.error.code ?? r.error.message}`);
        if (r.status !== 0) {
            // The service prints its own reason as "pulse-edge: …"; Wizer's trap report follows it.
            const reason = /^pulse-edge: (.*)$/m.exec(r.stderr ?? '')?.[1] ?? (r.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
            throw new usage_1.CommandError(`the Native service could not be configured: ${reason || `Wizer exited with ${r.status}`}`);
        }
        const bytes = (0, node_fs_1.readFileSync)(partial);
        const importModules = await (0, compute_binary_1.computeImports)(bytes, 'Wizer');
        (0, node_fs_1.renameSync)(partial, target);
        return { path: target, bytes: bytes.length, importModules };
    }
    finally {
        (0, node_fs_1.rmSync)(partial, { force: true });
    }
}
