"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.sha256Hex = exports.ManifestError = void 0;
exports.compileRouter = compileRouter;
exports.artifactFiles = artifactFiles;
/**
 * The manifest compiler: RouterDefinition (plain data, handlers never called) → the manifest the
 * core executes plus the two catalog artifacts. The core checks every manifest rule itself and is
 * the authority; the declaration rules are checked here too (imported from ../router/rules, never
 * restated), so a bad router fails at build time with a message naming the operation. Whether the
 * `tools/list` reply fits a response budget is decided by the core alone, where the budget is known.
 * Format: ./README.md.
 */
const helpers_1 = require("../handlers/helpers");
const rules_1 = require("../router/rules");
const corpus_1 = require("./corpus");
const errors_1 = require("./errors");
const projection_1 = require("./projection");
const sha256_1 = require("./sha256");
const types_1 = require("./types");
__exportStar(require("./types"), exports);
var errors_2 = require("./errors");
Object.defineProperty(exports, "ManifestError", { enumerable: true, get: function () { return errors_2.ManifestError; } });
var sha256_2 = require("./sha256");
Object.defineProperty(exports, "sha256Hex", { enumerable: true, get: function () { return sha256_2.sha256Hex; } });
const isPlainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Hash of an artifact: sha256 of its compact JSON with the `hash` member left out. */
function withHash(body, first) {
    const hash = `sha256:${(0, sha256_1.sha256Hex)(JSON.stringify(body))}`;
    // `hash` goes right after the identifying members; the rest keeps its order.
    const out = {};
    for (const k of first)
        out[k] = body[k];
    out.hash = hash;
    for (const [k, v] of Object.entries(body))
        if (!first.includes(k))
            out[k] = v;
    return out;
}
function staticJson(value, where) {
    const text = (0, helpers_1.staticResultText)(value);
    if (text === undefined)
        (0, errors_1.fail)(`${where}: static result must be ${rules_1.STATIC_RESULT_RULE}`);
    return text;
}
function backendUrl(base, path, where) {
    if ((0, rules_1.backendBase)(base) === undefined)
        (0, errors_1.fail)(`${where}: backend url must be https or loopback http without credentials, query or fragment`);
    if (!(0, rules_1.isBackendPath)(path))
        (0, errors_1.fail)(`${where}: backend path must be an absolute path of unreserved characters without dot segments`);
    const url = (0, rules_1.backendCallUrl)(base, path);
    if (!(0, rules_1.isBackendUrl)(url))
        (0, errors_1.fail)(`${where}: backend url with its path must be at most ${rules_1.MAX_URL_BYTES} characters`);
    return url;
}
/** The object field a corpus action reads, checked for its codec kind. */
function requireField(input, name, kinds, required, where) {
    const f = input?.kind === 'object' ? input.fields[name] : undefined;
    if (f === undefined) {
        if (required)
            (0, errors_1.fail)(`${where}: this corpus action needs an input field "${name}"`);
        return;
    }
    if (!kinds.includes(f.codec.kind) || (required && f.optional === true))
        (0, errors_1.fail)(`${where}: input field "${name}" must be ${required ? 'a required' : 'an'} ${kinds.join(' or ')} field`);
}
function bounded(v, dflt, range, what, where) {
    const n = v ?? dflt;
    if (!(0, rules_1.inRange)(n, range))
        (0, errors_1.fail)(`${where}: ${what} must be an integer from ${range.min} to ${range.max}`);
    return n;
}
function compileHandler(op, def, where) {
    const h = op.handler;
    if (!isPlainObject(h))
        (0, errors_1.fail)(`${where}: handler must be a handler definition`);
    switch (h.kind) {
        case 'static':
            // A content tool's static result is its content blocks.
            return op.output === undefined && op.content !== true ? { kind: 'static' } : { kind: 'static', result: staticJson(h.result, where) };
        case 'corpus': {
            if (!Object.prototype.hasOwnProperty.call(def.corpora, h.corpus))
                (0, errors_1.fail)(`${where}: corpus is not declared on the router`);
            const topK = bounded(h.topK, rules_1.DEFAULT_TOP_K, rules_1.TOP_K, 'topK', where);
            const maxBytes = bounded(h.maxBytes, rules_1.DEFAULT_CORPUS_MAX_BYTES, rules_1.HANDLER_BYTES, 'maxBytes', where);
            if (h.action === 'search') {
                requireField(op.input, 'query', ['string'], true, where);
                requireField(op.input, 'limit', ['u32', 'i32'], false, where);
            }
            else if (h.action === 'read') {
                requireField(op.input, 'id', ['string', 'enum'], true, where);
            }
            else if (h.action === 'list') {
                requireField(op.input, 'collection', ['string', 'enum'], false, where);
                requireField(op.input, 'limit', ['u32', 'i32'], false, where);
            }
            else
                (0, errors_1.fail)(`${where}: corpus action must be search, read or list`);
            return { kind: 'corpus', corpus: h.corpus, action: h.action, topK, maxBytes };
        }
        case 'backend': {
            if (!Object.prototype.hasOwnProperty.call(def.backends, h.backend))
                (0, errors_1.fail)(`${where}: backend is not declared on the router`);
            if (!rules_1.BACKEND_METHODS.includes(h.method))
                (0, errors_1.fail)(`${where}: backend method must be one of ${rules_1.BACKEND_METHODS.join(', ')}`);
            if (h.method === 'GET' && op.input !== undefined)
                (0, errors_1.fail)(`${where}: a GET backend call carries no body, so the operation must take no input`);
            const url = backendUrl(def.backends[h.backend].url, h.path, where);
            const maxBytes = bounded(h.maxBytes, undefined, rules_1.HANDLER_BYTES, 'maxBytes', where);
            const timeoutMs = bounded(h.timeoutMs, undefined, { min: 1, max: def.budgets.deadlineMs }, 'timeoutMs', where);
            return { kind: 'backend', backend: h.backend, method: h.method, url, maxBytes, timeoutMs };
        }
        case 'javascript':
            if (typeof h.fn !== 'function')
                (0, errors_1.fail)(`${where}: javascript handler must be a function`);
            return { kind: 'javascript' };
        default:
            return (0, errors_1.fail)(`${where}: unknown handler kind`);
    }
}
function compileRouter(def, options = {}) {
    if (!(0, rules_1.isName)(def.id))
        (0, errors_1.fail)(`router id must be ${rules_1.NAME_RULE}`);
    if (!Array.isArray(def.operations))
        (0, errors_1.fail)('router operations must be a list');
    if (def.operations.length > rules_1.MAX_OPERATIONS)
        (0, errors_1.fail)(`router declares ${def.operations.length} operations; at most ${rules_1.MAX_OPERATIONS} tools are allowed`);
    const deadlineMs = def.budgets?.deadlineMs;
    if (typeof deadlineMs !== 'number' || !Number.isInteger(deadlineMs) || deadlineMs < 1)
        (0, errors_1.fail)('router budgets.deadlineMs must be a positive integer');
    const names = new Set();
    const tools = [];
    const listed = [];
    const catalogOps = [];
    const schemas = [];
    const usedCorpora = new Set();
    for (const op of def.operations) {
        if (!(0, rules_1.isName)(op.name))
            (0, errors_1.fail)(`operation name must be ${rules_1.NAME_RULE}`);
        const where = `operation "${op.name}"`;
        if (names.has(op.name))
            (0, errors_1.fail)(`${where}: duplicate operation name`);
        names.add(op.name);
        for (const k of ['title', 'description'])
            if (op[k] !== undefined && typeof op[k] !== 'string')
                (0, errors_1.fail)(`${where}: ${k} must be a string`);
        const hints = {};
        if (op.hints !== undefined) {
            if (!isPlainObject(op.hints))
                (0, errors_1.fail)(`${where}: hints must be an object`);
            for (const k of Object.keys(op.hints))
                if (!rules_1.HINT_KEYS.includes(k))
                    (0, errors_1.fail)(`${where}: unknown hint "${k}"; only the four boolean MCP hints are allowed`);
            for (const k of rules_1.HINT_KEYS) {
                const v = op.hints[k];
                if (v === undefined)
                    continue;
                if (typeof v !== 'boolean')
                    (0, errors_1.fail)(`${where}: hint ${k} must be a boolean`);
                hints[k] = v;
            }
        }
        if (op.input !== undefined && op.input.kind !== 'object')
            (0, errors_1.fail)(`${where}: input must be an object codec`);
        const input = op.input === undefined ? (0, projection_1.noInputSchema)() : (0, projection_1.project)(op.input, 'input', `${where} input`);
        const output = op.output === undefined ? undefined : (0, projection_1.project)(op.output, 'output', `${where} output`);
        if (input.nodes + (output?.nodes ?? 0) > projection_1.MAX_PROJECTION_NODES)
            (0, errors_1.fail)(`${where}: schema projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        const handler = compileHandler(op, def, where);
        if (handler.kind === 'corpus')
            usedCorpora.add(handler.corpus);
        const headers = Object.entries(op.headerParams ?? {});
        tools.push({
            name: op.name,
            input: op.input === undefined ? null : (0, projection_1.compileProgram)(op.input, `${where} input`),
            output: op.output === undefined ? null : (0, projection_1.compileProgram)(op.output, `${where} output`),
            ...(op.content === true ? { content: true } : {}),
            ...(op.inputs !== undefined ? { inputs: op.inputs } : {}),
            ...(headers.length > 0 ? { headers } : {}),
            handler,
        });
        for (const [field, name] of headers) {
            const property = input.schema.properties?.[field];
            if (property === undefined)
                (0, errors_1.fail)(`${where}: headerParams names "${field}", which is not an input field`);
            property['x-mcp-header'] = name;
        }
        const tool = { name: op.name };
        if (op.title !== undefined)
            tool.title = op.title;
        if (op.description !== undefined)
            tool.description = op.description;
        tool.inputSchema = input.schema;
        if (output !== undefined)
            tool.outputSchema = output.schema;
        if (Object.keys(hints).length > 0)
            tool.annotations = hints;
        listed.push(tool);
        const inputId = `${op.name}#input`;
        const outputId = output === undefined ? null : `${op.name}#output`;
        schemas.push({ id: inputId, schema: input.schema });
        if (output !== undefined)
            schemas.push({ id: outputId, schema: output.schema });
        const entry = { name: op.name };
        if (op.title !== undefined)
            entry.title = op.title;
        if (op.description !== undefined)
            entry.description = op.description;
        if (Object.keys(hints).length > 0)
            entry.hints = hints;
        Object.assign(entry, {
            input: inputId,
            output: outputId,
            handler: handler.kind,
            targets: (0, types_1.eligibleTargets)(op.handler.kind),
        });
        if (op.authenticated !== undefined && typeof op.authenticated !== 'boolean')
            (0, errors_1.fail)(`${where}: authenticated must be a boolean`);
        if (op.authenticated === true)
            entry.authenticated = true;
        catalogOps.push(entry);
    }
    const list = JSON.stringify(listed);
    const corpora = {};
    const index = (0, corpus_1.corpusIndexes)(options.core);
    for (const name of [...usedCorpora].sort())
        corpora[name] = index(def.corpora[name], `corpus "${name}"`);
    const catalog = withHash({ formatVersion: types_1.CATALOG_FORMAT_VERSION, kind: 'pulse.entities-catalog', routerId: def.id, operations: catalogOps }, ['formatVersion', 'kind']);
    const schemaRegistry = withHash({ formatVersion: types_1.SCHEMA_REGISTRY_FORMAT_VERSION, kind: 'pulse.schema-json-registry', routerId: def.id, schemas }, ['formatVersion', 'kind']);
    const manifest = {
        formatVersion: types_1.MANIFEST_FORMAT_VERSION,
        routerId: def.id,
        catalogHash: catalog.hash,
        deadlineMs,
        list,
        tools,
        corpora,
    };
    return { manifest, catalog, schemaRegistry };
}
/** The files the CLI writes, as text: compact manifest, readable (2-space) catalog artifacts. */
function artifactFiles(compiled) {
    return {
        'manifest.json': `${JSON.stringify(compiled.manifest)}\n`,
        'entities-catalog.json': `${JSON.stringify(compiled.catalog, null, 2)}\n`,
        'schema-json-registry.json': `${JSON.stringify(compiled.schemaRegistry, null, 2)}\n`,
    };
}
