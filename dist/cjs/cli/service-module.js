"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exportedNames = exportedNames;
exports.serviceProfile = serviceProfile;
exports.loadTypeScript = loadTypeScript;
exports.nativeBinding = nativeBinding;
exports.staticConfig = staticConfig;
exports.facadeConfig = facadeConfig;
exports.serviceConfig = serviceConfig;
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
const node_fs_1 = require("node:fs");
const node_module_1 = require("node:module");
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const compiler_1 = require("../compiler");
const lower_1 = require("../compiler/lower");
const driver_1 = require("../core/driver");
const options_1 = require("../options");
const bind_1 = require("../router/bind");
const usage_1 = require("./usage");
const SHAPES = 'export `const server = mcp({ router, serverInfo })` (the static binding) or host `options` whose `tools` are catalog artifacts';
/** The names a module exports, read from its syntax (the module is not run). */
function exportedNames(ts, path) {
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch {
        throw new usage_1.CommandError(`${path} cannot be read`);
    }
    const kind = /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
    const names = new Set();
    const exported = (n) => ts.canHaveModifiers(n) && ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
    for (const st of source.statements) {
        if (ts.isVariableStatement(st) && exported(st))
            for (const d of st.declarationList.declarations)
                if (ts.isIdentifier(d.name))
                    names.add(d.name.text);
        if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && exported(st) && st.name)
            names.add(st.name.text);
        if (ts.isExportAssignment(st))
            names.add('default');
        if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause))
            for (const el of st.exportClause.elements)
                names.add(el.name.text);
    }
    return names;
}
/** The profile `path` declares, by what it exports. */
function serviceProfile(ts, path) {
    const names = exportedNames(ts, path);
    if (names.has('server') && names.has('options'))
        throw new usage_1.CommandError(`${path} exports both server and options; a service module is one service: ${SHAPES}`);
    if (names.has('server'))
        return 'static';
    if (names.has('options'))
        return 'facade';
    throw new usage_1.CommandError(`${path} exports ${names.size > 0 ? [...names].sort().join(', ') : 'nothing'}; a service module must ${SHAPES}`);
}
/**
 * The TypeScript compiler (an optional peer dependency), from the module's project first, then
 * beside this package. Its JavaScript API parses the module: TypeScript 7, a native compiler,
 * has none, so the peer range stops below it.
 */
function loadTypeScript(modulePath) {
    const install = 'npm install --save-dev typescript@5';
    for (const from of [(0, node_path_1.resolve)(modulePath), __filename]) {
        let ts;
        try {
            ts = (0, node_module_1.createRequire)(from)('typescript');
        }
        catch {
            continue; // not installed there
        }
        if (typeof ts.createSourceFile !== 'function') {
            throw new compiler_1.ManifestError(`pulse-mcp build reads the module with the TypeScript compiler's API, which typescript ${String(ts.version)} does not have (TypeScript 5 does): ${install}`);
        }
        return ts;
    }
    throw new compiler_1.ManifestError(`pulse-mcp build parses the module with the TypeScript compiler, an optional peer dependency that is not installed: ${install}`);
}
/**
 * For a Native target, the module's exported mcp() binding is the service: the binding's host
 * options under the static ceilings, judged by the core as the Native service embeds them, and
 * mcp-binding.json recording them. Nothing without a binding or for a JavaScript target.
 */
function nativeBinding(binding, target, compiled) {
    if (binding === undefined || target === undefined || !target.endsWith('-native'))
        return undefined;
    const options = (0, bind_1.staticOptions)({ ...binding });
    (0, driver_1.createHostCore)((0, options_1.resolveOptions)({ ...options, tools: { manifest: compiled.manifest } }, 'native', 'static'));
    const file = { formatVersion: 1, kind: 'pulse.mcp-binding', routerId: compiled.catalog.routerId, catalogHash: compiled.catalog.hash, options };
    return { options, file: `${JSON.stringify(file, null, 2)}\n` };
}
/** The static binding's Native configuration: its lowered options with its manifest. */
function staticConfig(bindingOptions, manifest) {
    return (0, options_1.resolveOptions)({ ...bindingOptions, tools: { manifest } }, 'native', 'static').configJson;
}
/** The facade module's `options`, evaluated; refused unless its tools are catalog-backed. */
async function facadeOptions(path) {
    let mod;
    try {
        mod = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.resolve)(path)).href));
    }
    catch (e) {
        throw new usage_1.CommandError(`${path} did not load: ${e.message}`);
    }
    const options = mod.options;
    const tools = options?.tools;
    if (typeof tools !== 'object' || tools === null || !('catalog' in tools)) {
        throw new usage_1.CommandError(`${path} exports options without catalog-backed tools ({ catalog, schemas, routerId, target, endpoint, backend }); a router is served by the static binding: ${SHAPES}`);
    }
    return options;
}
/** The facade module's Native configuration. */
async function facadeConfig(path) {
    return (0, options_1.resolveOptions)(await facadeOptions(path), 'native').configJson;
}
/**
 * The engine configuration of the Native service `path` declares, whichever its profile; `overrides`
 * replace the binding's or the facade's options (the legacy-enabled variant of a service, a log
 * endpoint for a test).
 */
async function serviceConfig(path, overrides = {}) {
    const ts = loadTypeScript(path);
    if (serviceProfile(ts, path) === 'facade') {
        const options = { ...(await facadeOptions(path)), ...overrides };
        return { profile: 'facade', options, configJson: (0, options_1.resolveOptions)(options, 'native').configJson };
    }
    const lowered = (0, lower_1.lowerRouter)(ts, path, { target: 'fastly-native' });
    const compiled = (0, compiler_1.compileRouter)(lowered.definition);
    const served = nativeBinding(lowered.binding, 'fastly-native', compiled);
    if (served === undefined)
        throw new usage_1.CommandError(`${path} binds no router with mcp(): the Native service is the module's \`export const server = mcp({ router, serverInfo })\``);
    const options = { ...served.options, ...overrides, tools: { manifest: compiled.manifest } };
    return { profile: 'static', options, configJson: (0, options_1.resolveOptions)(options, 'native', 'static').configJson };
}
