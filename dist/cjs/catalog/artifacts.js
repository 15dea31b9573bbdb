"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_ARTIFACT_LEVELS = exports.MAX_ARTIFACT_BYTES = exports.CATALOG_BACKEND = void 0;
exports.catalogManifest = catalogManifest;
/**
 * Catalog-backed tools: `tools: { catalog, schemas, routerId, target, endpoint, backendBearerToken? }`
 * (the artifacts `pulse-mcp compile` writes for a backend served with `jsonRpc(router)`) → the
 * manifest the core executes. Each tool becomes one `rpc` handler: the core checks the input's
 * structure, sends exactly one JSON-RPC request naming the operation to the fixed endpoint, and
 * checks the reply's envelope, id and output structure (native/core/src/rpc_client.rs). The
 * artifacts are read once, here, into new values: later changes to the caller's objects change
 * nothing. Every refusal is a `PulseConfigError` naming the option and the entry.
 */
const errors_1 = require("../errors");
const types_1 = require("../compiler/types");
const projection_1 = require("../compiler/projection");
const rules_1 = require("../router/rules");
const helpers_1 = require("../handlers/helpers");
const schema_program_1 = require("./schema-program");
/** The Fastly backend name the edge sends to unless `backend` names another; hosts dial the URL. */
exports.CATALOG_BACKEND = 'endpoint';
exports.MAX_ARTIFACT_BYTES = 1 << 20;
exports.MAX_ARTIFACT_LEVELS = 32;
const KEYS = ['catalog', 'schemas', 'routerId', 'target', 'endpoint', 'backendBearerToken', 'backend'];
const OPERATION_KEYS = ['name', 'title', 'description', 'hints', 'input', 'output', 'handler', 'targets', 'authenticated'];
function fail(message) {
    throw new errors_1.PulseConfigError(message);
}
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * A copy of an artifact as plain JSON, within 1 MiB of JSON text and 32 levels; `undefined` when
 * it is not plain JSON at all.
 */
function snapshot(value, where) {
    let text;
    const levels = (v, depth) => {
        if (depth > exports.MAX_ARTIFACT_LEVELS)
            fail(`${where}: nests deeper than ${exports.MAX_ARTIFACT_LEVELS} levels`);
        if (typeof v === 'object' && v !== null)
            for (const x of Object.values(v))
                levels(x, depth + 1);
    };
    levels(value, 1);
    try {
        text = JSON.stringify(value);
    }
    catch {
        return fail(`${where}: must be plain JSON data`);
    }
    if (typeof text !== 'string')
        return fail(`${where}: must be plain JSON data`);
    if ((0, helpers_1.utf8Length)(text) > exports.MAX_ARTIFACT_BYTES)
        fail(`${where}: is larger than ${exports.MAX_ARTIFACT_BYTES} bytes of JSON`);
    return JSON.parse(text);
}
function artifact(value, option, kind, version, routerId) {
    const a = snapshot(value, option);
    if (!isObject(a))
        return fail(`${option}: must be the parsed ${kind === 'pulse.entities-catalog' ? 'entities-catalog.json' : 'schema-json-registry.json'}`);
    if (a.kind !== kind)
        fail(`${option}: kind must be "${kind}"`);
    // Catalogs of format 1 name their targets the old way: say so rather than "unknown".
    if (kind === 'pulse.entities-catalog' && a.formatVersion === 1)
        fail(`${option}: formatVersion 1 is an earlier release's, whose target names changed (${types_1.TARGET_RENAMES}); build the artifacts again with this release`);
    if (a.formatVersion !== version)
        fail(`${option}: unknown formatVersion ${JSON.stringify(a.formatVersion)}; this release reads ${version}`);
    if (a.routerId !== routerId)
        fail(`${option}: routerId ${JSON.stringify(a.routerId)} is not tools.routerId ${JSON.stringify(routerId)}`);
    if (typeof a.hash !== 'string')
        fail(`${option}: needs its hash`);
    return a;
}
/** The manifest for the core, from validated copies of the artifacts. */
function catalogManifest(value, limits) {
    for (const k of Object.keys(value))
        if (!KEYS.includes(k))
            fail(`tools: unknown key ${JSON.stringify(k)}; catalog-backed tools take ${KEYS.join(', ')}`);
    const { routerId, target, endpoint, backendBearerToken } = value;
    if (!(0, rules_1.isName)(routerId))
        fail(`tools.routerId: must be ${rules_1.NAME_RULE}`);
    const refused = (0, types_1.targetRefusal)('tools.target', target);
    if (refused !== undefined)
        fail(refused);
    const url = (0, rules_1.backendBase)(endpoint);
    if (url === undefined)
        fail('tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment');
    // Text must be a bearer token; a reference (Native builds) is copied, and judged by the core.
    let bearer;
    if (isObject(backendBearerToken))
        bearer = { ...backendBearerToken };
    else if (backendBearerToken === undefined || (0, rules_1.isBearerToken)(backendBearerToken))
        bearer = backendBearerToken;
    else
        fail('tools.backendBearerToken: must be a bearer token (RFC 6750 characters: A-Z a-z 0-9 - . _ ~ + / then optional =, at most 4096)');
    const backend = value.backend ?? exports.CATALOG_BACKEND;
    if (!(0, rules_1.isName)(backend))
        fail(`tools.backend: must be a Fastly backend name, ${rules_1.NAME_RULE}`);
    const catalog = artifact(value.catalog, 'tools.catalog', 'pulse.entities-catalog', types_1.CATALOG_FORMAT_VERSION, routerId);
    const registry = artifact(value.schemas, 'tools.schemas', 'pulse.schema-json-registry', types_1.SCHEMA_REGISTRY_FORMAT_VERSION, routerId);
    const schemas = new Map();
    if (!Array.isArray(registry.schemas))
        fail('tools.schemas.schemas: must be a list');
    registry.schemas.forEach((entry, i) => {
        const where = `tools.schemas.schemas[${i}]`;
        if (!isObject(entry) || typeof entry.id !== 'string' || !isObject(entry.schema))
            fail(`${where}: must be { id, schema }`);
        if (schemas.has(entry.id))
            fail(`${where}: duplicate schema id ${JSON.stringify(entry.id)}`);
        schemas.set(entry.id, entry.schema);
    });
    const ops = catalog.operations;
    if (!Array.isArray(ops))
        fail('tools.catalog.operations: must be a list');
    if (ops.length > rules_1.MAX_OPERATIONS)
        fail(`tools.catalog: router "${routerId}" has ${ops.length} operations; at most ${rules_1.MAX_OPERATIONS} tools are allowed`);
    const names = new Set();
    const tools = [];
    const listed = [];
    ops.forEach((op, i) => {
        let where = `tools.catalog.operations[${i}]`;
        if (!isObject(op))
            fail(`${where}: must be an object`);
        if (!(0, rules_1.isName)(op.name))
            fail(`${where}: name must be ${rules_1.NAME_RULE}`);
        where = `${where} (${op.name})`;
        if (names.has(op.name))
            fail(`${where}: duplicate tool name`);
        names.add(op.name);
        for (const k of Object.keys(op))
            if (!OPERATION_KEYS.includes(k))
                fail(`${where}: unknown member ${JSON.stringify(k)}`);
        if (Array.isArray(op.targets))
            op.targets.forEach((t, j) => {
                const wrong = (0, types_1.targetRefusal)(`${where}.targets[${j}]`, t);
                if (wrong !== undefined)
                    fail(wrong);
            });
        if (!Array.isArray(op.targets) || !op.targets.includes(target))
            fail(`${where}: not eligible for target ${target} (its targets: ${Array.isArray(op.targets) ? op.targets.join(', ') : 'none'})`);
        for (const k of ['title', 'description'])
            if (op[k] !== undefined && typeof op[k] !== 'string')
                fail(`${where}: ${k} must be a string`);
        if (op.authenticated !== undefined && op.authenticated !== true)
            fail(`${where}: authenticated must be true when present`);
        if (op.authenticated === true && backendBearerToken === undefined)
            fail(`tools.backendBearerToken: required, because ${where} is authenticated (it needs the backend's service credential)`);
        const hints = {};
        if (op.hints !== undefined) {
            if (!isObject(op.hints))
                fail(`${where}: hints must be an object`);
            for (const [k, v] of Object.entries(op.hints)) {
                if (!rules_1.HINT_KEYS.includes(k) || typeof v !== 'boolean')
                    fail(`${where}: hints may hold only the four boolean MCP hints (${rules_1.HINT_KEYS.join(', ')})`);
                hints[k] = v;
            }
        }
        const lower = (id, direction) => {
            if (id === null && direction === 'output')
                return { schema: undefined, lowered: { program: null, headers: [], nodes: 0 } };
            if (typeof id !== 'string' || !schemas.has(id))
                fail(`${where}: ${direction} schema ${JSON.stringify(id)} is not in tools.schemas`);
            const schema = schemas.get(id);
            const say = (at, reason) => fail(`tools.schemas: schema ${JSON.stringify(id)} at ${at}: ${reason}`);
            return { schema, lowered: (0, schema_program_1.lowerSchema)(schema, direction, say) };
        };
        const input = lower(op.input, 'input');
        const output = lower(op.output, 'output');
        if (input.lowered.nodes + output.lowered.nodes > projection_1.MAX_PROJECTION_NODES)
            fail(`${where}: the schema projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        tools.push({
            name: op.name,
            input: input.lowered.program,
            output: output.lowered.program,
            ...(input.lowered.headers.length > 0 ? { headers: input.lowered.headers } : {}),
            handler: {
                kind: 'rpc',
                backend,
                url,
                maxBytes: Math.min(limits.responseBytes, exports.MAX_ARTIFACT_BYTES),
                ...(bearer === undefined ? {} : { bearer }),
            },
        });
        // Only the title, the description and the four hints are projected.
        const tool = { name: op.name };
        if (op.title !== undefined)
            tool.title = op.title;
        if (op.description !== undefined)
            tool.description = op.description;
        tool.inputSchema = input.schema;
        if (output.schema !== undefined)
            tool.outputSchema = output.schema;
        if (Object.keys(hints).length > 0)
            tool.annotations = hints;
        listed.push(tool);
    });
    return {
        formatVersion: types_1.MANIFEST_FORMAT_VERSION,
        routerId,
        catalogHash: catalog.hash,
        deadlineMs: limits.deadlineMs,
        list: JSON.stringify(listed),
        tools,
        corpora: {},
    };
}
