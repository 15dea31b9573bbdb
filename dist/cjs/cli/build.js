"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadFailure = loadFailure;
exports.serviceManifestPath = serviceManifestPath;
exports.nativeServiceBinary = nativeServiceBinary;
exports.moduleArgument = moduleArgument;
exports.compileCommand = compileCommand;
exports.buildCommand = buildCommand;
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
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const compiler_1 = require("../compiler");
const evidence_1 = require("../compiler/evidence");
const lower_1 = require("../compiler/lower");
const driver_1 = require("../core/driver");
const options_1 = require("../options");
const fastly_manifest_1 = require("./fastly-manifest");
const native_service_1 = require("./native-service");
const service_module_1 = require("./service-module");
const engine_1 = require("../core/engine");
const javascript_service_1 = require("./javascript-service");
const usage_1 = require("./usage");
function definitionOf(mod) {
    const candidates = [mod.default, mod.router];
    const nested = mod.default?.default;
    if (nested !== undefined)
        candidates.push(nested);
    for (const c of candidates) {
        if (typeof c !== 'object' || c === null)
            continue;
        const d = c.definition;
        const def = typeof d === 'function' ? d.call(c) : d ?? c;
        if (typeof def === 'object' && def !== null && Array.isArray(def.operations))
            return def;
    }
    const names = Object.keys(mod).sort();
    throw new compiler_1.ManifestError(`the module exports no router (its exports: ${names.length ? names.join(', ') : 'none'}): ` +
        'export an EntityRouter or a RouterDefinition as `default` or as `router`');
}
function positiveInt(flag, v) {
    if (v === undefined || !/^[1-9][0-9]{0,9}$/.test(v))
        throw new usage_1.UsageError(`${flag} takes a positive integer, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`);
    return Number(v);
}
/** The targets a Compute binary is built for. */
const COMPUTE_TARGETS = ['fastly-native', 'fastly-javascript'];
/** `compile` takes the limit flags, `build` the router, target, binary and manifest flags. */
function parseArgs(command, args) {
    let modulePath;
    let out;
    let router;
    let target;
    let evidence;
    let wasm;
    let fastlyToml;
    const limits = {};
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--out')
            out = (0, usage_1.flagValue)(args, i++, 'a directory');
        else if (command === 'compile' && arg === '--response-bytes')
            limits.responseBytes = positiveInt(arg, args[++i]);
        else if (command === 'compile' && arg === '--request-bytes')
            limits.requestBytes = positiveInt(arg, args[++i]);
        else if (command === 'build' && arg === '--router')
            router = (0, usage_1.flagValue)(args, i++, 'a router id');
        else if (command === 'build' && arg === '--target') {
            const t = (0, usage_1.flagValue)(args, i++, `one of ${compiler_1.TARGETS.join(', ')}`);
            const refused = (0, compiler_1.targetRefusal)('--target', t);
            if (refused !== undefined)
                throw new usage_1.UsageError(refused);
            target = t;
        }
        else if (command === 'build' && arg === '--evidence')
            evidence = (0, usage_1.flagValue)(args, i++, 'the path of a diff report');
        else if (command === 'build' && arg === '--wasm')
            wasm = (0, usage_1.flagValue)(args, i++, 'the path of the Compute binary to write (bin/main.wasm)');
        else if (command === 'build' && arg === '--fastly-toml')
            fastlyToml = (0, usage_1.flagValue)(args, i++, "the path of the service's fastly.toml");
        else if (arg.startsWith('-'))
            throw new usage_1.UsageError(`unknown option ${arg}`);
        else if (modulePath === undefined)
            modulePath = arg;
        else
            throw new usage_1.UsageError(`unexpected argument ${arg}: ${command} takes one module`);
    }
    if (modulePath === undefined)
        throw new usage_1.UsageError(`${command} needs a module`);
    if (wasm !== undefined && (target === undefined || !COMPUTE_TARGETS.includes(target))) {
        throw new usage_1.UsageError(`--wasm writes a Fastly Compute binary: give --target ${COMPUTE_TARGETS.join(' or --target ')}`);
    }
    if (fastlyToml !== undefined && wasm === undefined)
        throw new usage_1.UsageError('--fastly-toml is read by a build that writes a binary: give --wasm <file>');
    if (out === undefined && wasm === undefined)
        throw new usage_1.UsageError(`${command} needs --out <dir>${command === 'build' ? ' (or --wasm <file> for a Compute binary)' : ''}`);
    return { modulePath, out, limits, router, target, evidence, wasm, fastlyToml };
}
/** The cause of a module that did not load, as Node reports it, without the stack. */
function loadFailure(path, err) {
    const e = err;
    const what = typeof e?.message === 'string' ? `${typeof e.name === 'string' ? `${e.name}: ` : ''}${e.message}` : String(err);
    return `${path} did not load: ${what}${e?.name === 'SyntaxError' ? syntaxLocation(path) : ''}`;
}
/** import() reports no position for a syntax error; `node --check` prints file:line and a caret. */
function syntaxLocation(path) {
    const check = (0, node_child_process_1.spawnSync)(process.execPath, ['--check', (0, node_path_1.resolve)(path)], { encoding: 'utf8', timeout: 10_000 });
    const lines = (check.stderr ?? '').split('\n');
    const end = lines.findIndex((l) => l.startsWith('SyntaxError'));
    return end > 0 ? `\n${lines.slice(0, end).join('\n').trimEnd()}` : '';
}
async function compile(args) {
    const url = (0, node_url_1.pathToFileURL)((0, node_path_1.resolve)(args.modulePath)).href;
    let mod;
    try {
        // module Node16 keeps import() in the CommonJS build, so ESM and CJS router modules both load.
        mod = (await import(url));
    }
    catch (err) {
        throw new compiler_1.ManifestError(loadFailure(args.modulePath, err));
    }
    const compiled = (0, compiler_1.compileRouter)(definitionOf(mod));
    // The core is the judge of a manifest; a rejection is a PulseConfigError with its message.
    checkManifest(compiled.manifest, args.limits);
    // parseArgs requires --out of compile, which writes no binary.
    write(args.out, (0, compiler_1.artifactFiles)(compiled));
}
/** The core is the judge of a manifest; a rejection is a PulseConfigError with its message. */
function checkManifest(manifest, limits) {
    (0, driver_1.createHostCore)((0, options_1.resolveOptions)({ limits, tools: { manifest } }, 'host', 'static'));
}
function write(out, files) {
    (0, node_fs_1.mkdirSync)(out, { recursive: true });
    for (const [name, text] of Object.entries(files))
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(out, name), text);
    process.stdout.write(`wrote ${Object.keys(files).join(', ')} to ${out}\n`);
}
async function build(args) {
    const ts = (0, service_module_1.loadTypeScript)(args.modulePath);
    // The facade profile is data, evaluated: there is no router to lower.
    if (args.wasm !== undefined && (0, service_module_1.serviceProfile)(ts, args.modulePath) === 'facade') {
        if (args.target !== 'fastly-native')
            throw new usage_1.CommandError(`${args.modulePath} exports host options; the host facade runs at the edge as the Fastly Native service: --target fastly-native`);
        if (args.out !== undefined || args.evidence !== undefined || args.router !== undefined) {
            throw new usage_1.UsageError(`${args.modulePath} exports host options: --out, --evidence and --router read a router module, not a facade`);
        }
        await writeNative(await (0, service_module_1.facadeConfig)(args.modulePath), args, args.wasm, 'host facade');
        return;
    }
    const lowered = (0, lower_1.lowerRouter)(ts, args.modulePath, { router: args.router, target: args.target });
    const compiled = (0, compiler_1.compileRouter)(lowered.definition);
    checkManifest(compiled.manifest);
    const { 'manifest.json': manifestFile, ...catalogFiles } = (0, compiler_1.artifactFiles)(compiled);
    const { operations, ...head } = lowered.inspection;
    // No report, no evidence: null says so, an empty list would claim a run that sent no case.
    const measured = args.evidence === undefined ? undefined : (0, evidence_1.operationEvidence)(readReport(args.evidence), `--evidence ${args.evidence}`, {
        routerId: head.routerId,
        catalogHash: compiled.catalog.hash,
        operations: operations.map((o) => o.name),
    });
    const inspection = { ...head, catalogHash: compiled.catalog.hash, operations: operations.map((o) => ({ ...o, evidence: measured?.get(o.name) ?? null })) };
    const served = (0, service_module_1.nativeBinding)(lowered.binding, args.target, compiled);
    if (args.out !== undefined) {
        const bindingFiles = served === undefined ? {} : { 'manifest.json': manifestFile, 'mcp-binding.json': served.file };
        write(args.out, { ...catalogFiles, 'entities-inspection.json': `${JSON.stringify(inspection, null, 2)}\n`, ...bindingFiles });
    }
    if (args.wasm === undefined)
        return;
    // Either service is the module's mcp() binding: a module without one has nothing to answer with.
    if (lowered.binding === undefined)
        throw new usage_1.CommandError(`${args.modulePath} binds no router with mcp(): the service is the module's \`export const server = mcp({ router, serverInfo })\``);
    if (args.target === 'fastly-native')
        await writeNative((0, service_module_1.staticConfig)(served.options, compiled.manifest), args, args.wasm, 'static binding');
    else
        await (0, javascript_service_1.buildJavaScriptService)(args.modulePath, args.wasm);
}
/**
 * The Native binary of `configJson`: the Fastly names it uses checked against the service's
 * fastly.toml (beside the module unless --fastly-toml names it), then the prebuilt service
 * configured with it.
 */
async function writeNative(configJson, args, out, profile) {
    const binary = await nativeServiceBinary(configJson, args.modulePath, args.fastlyToml, out);
    process.stdout.write(`wrote ${out} (${binary.bytes} bytes): the Fastly Native service of ${args.modulePath} (${profile}), imports ${binary.importModules.join(', ')}\n`);
}
/** The service's fastly.toml: `fastlyToml` when given, else the one beside the module. */
function serviceManifestPath(modulePath, fastlyToml) {
    return (0, node_path_1.resolve)(fastlyToml ?? (0, node_path_1.join)((0, node_path_1.dirname)((0, node_path_1.resolve)(modulePath)), 'fastly.toml'));
}
/** Writes to `out` the Native binary of `configJson`, the Fastly names it uses checked against the service's fastly.toml first. */
async function nativeServiceBinary(configJson, modulePath, fastlyToml, out) {
    const toml = serviceManifestPath(modulePath, fastlyToml);
    (0, fastly_manifest_1.checkServiceNames)(engine_1.Engine.create(configJson).serviceNames(), await (0, fastly_manifest_1.readFastlyManifest)(toml), toml);
    return (0, native_service_1.configureNativeService)(configJson, out, (0, node_path_1.dirname)((0, node_path_1.resolve)(modulePath)));
}
function readReport(path) {
    try {
        return (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch (e) {
        throw new compiler_1.ManifestError(`--evidence ${path} cannot be read: ${e.message}`);
    }
}
/** The module a command names, as given, for messages about it. */
function moduleArgument(args) {
    return args.find((a) => !a.startsWith('-')) ?? 'the module';
}
async function compileCommand(args) {
    await compile(parseArgs('compile', args));
}
async function buildCommand(args) {
    await build(parseArgs('build', args));
}
