"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readFastlyManifest = readFastlyManifest;
exports.checkServiceNames = checkServiceNames;
/**
 * The service's Fastly package manifest (fastly.toml) as the Native build reads it: every backend,
 * secret store and log endpoint the engine configuration names (the core lists them:
 * `Engine.serviceNames()`) must be declared there, or the service would meet the missing name only
 * at run time, as a 500 on every call that needs it.
 */
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const usage_1 = require("./usage");
const isTable = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The manifest at `path`, parsed; a missing file or a syntax error is a `CommandError` naming it. */
async function readFastlyManifest(path) {
    if (!(0, node_fs_1.existsSync)(path)) {
        throw new usage_1.CommandError(`${path} does not exist: the Native build checks the backends, secret stores and log endpoints the service names against the project's fastly.toml; write one beside the module or name it with --fastly-toml`);
    }
    const { readToml } = (await import((0, node_url_1.pathToFileURL)((0, node_path_1.join)(__dirname, 'compute-host', 'toml.mjs')).href));
    try {
        return readToml(path);
    }
    catch (e) {
        throw new usage_1.CommandError(`${path}: ${e.message}`);
    }
}
/** The names declared under `[setup.<kind>]` and `[local_server.<kind>]`. */
function declared(manifest, kind) {
    const names = new Set();
    for (const section of [manifest.setup, manifest.local_server]) {
        const table = isTable(section) ? section[kind] : undefined;
        if (isTable(table))
            for (const name of Object.keys(table))
                names.add(name);
    }
    return names;
}
/**
 * Refuses, with every missing name, the option that names it and the table to add, a configuration
 * naming a backend, secret store or log endpoint the manifest does not declare. Log endpoints are
 * declared for publishing only (`[setup.log_endpoints]`): Fastly's local runtime writes every
 * endpoint to its own output.
 */
function checkServiceNames(names, manifest, path) {
    const missing = [];
    const backends = declared(manifest, 'backends');
    // A backend several operations send to is one name to declare: listed once, with every option naming it.
    const byBackend = new Map();
    for (const b of names.backends)
        if (!backends.has(b.name))
            byBackend.set(b.name, [...(byBackend.get(b.name) ?? []), b.option]);
    for (const [name, options] of byBackend) {
        missing.push(`backend "${name}" (named by ${options.join(', ')}): add [setup.backends.${name}] to publish and [local_server.backends.${name}] to serve it locally`);
    }
    const stores = declared(manifest, 'secret_stores');
    for (const s of names.secretStores) {
        if (!stores.has(s.name))
            missing.push(`secret store "${s.name}" (named by ${s.option}, key "${s.key}"): add [setup.secret_stores.${s.name}] to publish and [local_server.secret_stores.${s.name}] to serve it locally`);
    }
    const endpoints = declared(manifest, 'log_endpoints');
    for (const l of names.logEndpoints) {
        if (!endpoints.has(l.name))
            missing.push(`log endpoint "${l.name}" (named by ${l.option}): add [setup.log_endpoints.${l.name}]`);
    }
    if (missing.length > 0)
        throw new usage_1.CommandError(`${path} does not declare what the service uses:\n  ${missing.join('\n  ')}`);
}
