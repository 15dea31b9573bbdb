"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EntityRouter = exports.MAX_OPERATIONS = exports.DEFAULT_BUDGETS = void 0;
exports.isEntityRouter = isEntityRouter;
exports.routerDefinition = routerDefinition;
const codecs_1 = require("./codecs");
const options_1 = require("../options");
const errors_1 = require("./errors");
const helpers_1 = require("../handlers/helpers");
const rules_1 = require("./rules");
Object.defineProperty(exports, "DEFAULT_BUDGETS", { enumerable: true, get: function () { return rules_1.DEFAULT_BUDGETS; } });
Object.defineProperty(exports, "MAX_OPERATIONS", { enumerable: true, get: function () { return rules_1.MAX_OPERATIONS; } });
/** Stands in for every JavaScript handler in the published definition; refuses to run. */
const INERT_JAVASCRIPT = Object.freeze({
    kind: 'javascript',
    fn: Object.freeze(function javascriptHandler() {
        return (0, errors_1.fail)('PULSE_ERR_CALL', 'callUnsupported');
    }),
});
const states = new WeakMap();
function isPlainObject(v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
        return false;
    const p = Object.getPrototypeOf(v);
    return p === Object.prototype || p === null;
}
function record(v, max, each, onError) {
    if (v === undefined)
        return Object.freeze(Object.create(null));
    if (!isPlainObject(v))
        onError();
    const keys = Object.keys(v);
    if (keys.length > max)
        onError();
    const out = Object.create(null);
    for (const k of keys) {
        if (!(0, rules_1.isName)(k))
            onError();
        out[k] = each(k, v[k]);
    }
    return Object.freeze(out);
}
function backendUrl(v) {
    const raw = typeof v === 'string' ? v : isPlainObject(v) && Object.keys(v).length === 1 ? v.url : undefined;
    const url = (0, rules_1.backendBase)(raw);
    if (url === undefined)
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'backends');
    return Object.freeze({ url });
}
function configValue(_k, v) {
    const ok = (typeof v === 'string' && v.length <= 4096) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
    if (!ok)
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'config');
    return v;
}
function budgets(v) {
    if (v === undefined)
        return rules_1.DEFAULT_BUDGETS;
    if (!isPlainObject(v))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'budgets');
    const out = { ...rules_1.DEFAULT_BUDGETS };
    for (const k of Object.keys(v)) {
        const max = rules_1.DEFAULT_BUDGETS[k];
        const n = v[k];
        if (max === undefined || typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'budgets');
        }
        out[k] = n;
    }
    return Object.freeze(out);
}
const MAX_CORPUS_ENTRIES = 4096;
const MAX_CORPUS_BYTES = 8 * 1048576;
function corpusDefinition(_k, v) {
    const bad = () => (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'corpora');
    if (!isPlainObject(v) || typeof v.version !== 'string' || v.version.length < 1 || v.version.length > 128)
        bad();
    const c = v;
    if (!Array.isArray(c.entries) || c.entries.length > MAX_CORPUS_ENTRIES)
        bad();
    const ids = new Set();
    let bytes = 0;
    const entries = c.entries.map((e) => {
        if (!isPlainObject(e))
            bad();
        const { id, title, collection, text, tags } = e;
        if (!(0, rules_1.isName)(id) || ids.has(id))
            bad();
        if (typeof title !== 'string' || title.length > 512)
            bad();
        if (!(0, rules_1.isName)(collection))
            bad();
        if (typeof text !== 'string')
            bad();
        if (tags !== undefined && (!Array.isArray(tags) || tags.length > 32 || tags.some((t) => typeof t !== 'string' || t.length > 64)))
            bad();
        ids.add(id);
        bytes += (0, helpers_1.utf8Length)(text) + (0, helpers_1.utf8Length)(title);
        const entry = { id, title, collection, text };
        if (tags !== undefined)
            entry.tags = [...tags];
        return entry;
    });
    if (bytes > MAX_CORPUS_BYTES)
        bad();
    return (0, helpers_1.deepFreeze)({ version: c.version, entries });
}
const OPERATION_KEYS = ['input', 'output', 'title', 'description', 'hints', 'content', 'inputs', 'headerParams', 'authenticated', 'handler'];
class EntityRouter {
    constructor(id, options) {
        if (!(0, rules_1.isName)(id))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'routerId');
        const o = options ?? {};
        if (!isPlainObject(o) || Object.keys(o).some((k) => !['backends', 'config', 'budgets', 'corpora'].includes(k))) {
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'routerOptions');
        }
        states.set(this, {
            id,
            operations: new Map(),
            backends: record(o.backends, 32, (_k, v) => backendUrl(v), () => (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'backends')),
            config: record(o.config, 256, configValue, () => (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'config')),
            budgets: budgets(o.budgets),
            corpora: record(o.corpora, 16, corpusDefinition, () => (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'corpora')),
            definition: undefined,
            published: undefined,
        });
        Object.freeze(this);
    }
    get id() {
        return state(this).id;
    }
    /** Declared operation names, in declaration order. */
    get operationNames() {
        return Object.freeze([...state(this).operations.keys()]);
    }
    /** Whether the router is bound (no further declarations). */
    get frozen() {
        return state(this).definition !== undefined;
    }
    /**
     * The plain-data definition for build tooling (the compiler CLI). Binds (freezes) the router.
     * JavaScript handlers appear as one shared inert placeholder, never as the declared function.
     */
    definition() {
        const s = state(this);
        if (s.published === undefined) {
            const full = routerDefinition(this);
            s.published = Object.freeze({
                ...full,
                operations: Object.freeze(full.operations.map((op) => op.handler.kind === 'javascript' ? Object.freeze({ ...op, handler: INERT_JAVASCRIPT }) : op)),
            });
        }
        return s.published;
    }
    operation(name, options) {
        const s = state(this);
        if (s.definition !== undefined)
            (0, errors_1.fail)('PULSE_ERR_FROZEN', 'frozen');
        if (!(0, rules_1.isName)(name))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationName');
        if (s.operations.has(name))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationDuplicate');
        if (s.operations.size >= rules_1.MAX_OPERATIONS)
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationCount');
        const o = options;
        if (!isPlainObject(o) || Object.keys(o).some((k) => !OPERATION_KEYS.includes(k)))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationOptions');
        const { input, output, title, description, hints, content, inputs, headerParams, authenticated, handler } = o;
        if (title !== undefined && (typeof title !== 'string' || title.length > 256))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationTitle');
        if (description !== undefined && (typeof description !== 'string' || description.length > 4096)) {
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationTitle');
        }
        if (hints !== undefined) {
            if (!isPlainObject(hints) || Object.keys(hints).some((k) => !rules_1.HINT_KEYS.includes(k) || typeof hints[k] !== 'boolean')) {
                (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationHints');
            }
        }
        if (input !== undefined && (!(0, codecs_1.isCodec)(input) || input.kind !== 'object'))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationInput');
        if (output !== undefined && !(0, codecs_1.isCodec)(output))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationOutput');
        if (content !== undefined && typeof content !== 'boolean')
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationContent');
        if (content === true && output !== undefined)
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationContent');
        if (inputs !== undefined && !Array.isArray(inputs))
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationInputs');
        if (headerParams !== undefined) {
            // The name rule (an RFC 9110 token) is the core's, applied when the handler is built.
            if (!isPlainObject(headerParams) || Object.values(headerParams).some((h) => typeof h !== 'string')) {
                (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationHeaderParams');
            }
        }
        if (authenticated !== undefined && typeof authenticated !== 'boolean')
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'operationAuthenticated');
        const def = { name, handler: handlerDefinition(s, handler) };
        if (title !== undefined)
            def.title = title;
        if (description !== undefined)
            def.description = description;
        if (hints !== undefined)
            def.hints = Object.freeze({ ...hints });
        if (input !== undefined)
            def.input = input;
        if (output !== undefined)
            def.output = output;
        if (content === true)
            def.content = true;
        // Plain data, copied: the core judges the rounds when the handler is built.
        if (inputs !== undefined)
            def.inputs = (0, helpers_1.deepFreeze)(JSON.parse((0, options_1.jsonText)(inputs, `operation "${name}" inputs`)));
        if (headerParams !== undefined)
            def.headerParams = Object.freeze({ ...headerParams });
        if (authenticated === true)
            def.authenticated = true;
        s.operations.set(name, Object.freeze(def));
        return this;
    }
}
exports.EntityRouter = EntityRouter;
function handlerDefinition(s, h) {
    if (typeof h === 'function') {
        return Object.freeze({ kind: 'javascript', fn: h });
    }
    if (!(0, helpers_1.isNativeHandler)(h))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handler');
    if (h.kind === 'corpus' && s.corpora[h.corpus] === undefined)
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpus');
    if (h.kind === 'backend') {
        if (s.backends[h.backend] === undefined)
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackend');
        // The builder bounded it by the default deadline; the router's own may be lower.
        if (h.timeoutMs > s.budgets.deadlineMs)
            (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    }
    return h;
}
function state(r) {
    const s = states.get(r);
    if (s === undefined)
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'routerId');
    return s;
}
function isEntityRouter(v) {
    return typeof v === 'object' && v !== null && states.has(v);
}
/**
 * Module-internal: freezes the router (binding) and returns its complete definition, including
 * JavaScript handler functions. Not exported by the package entry points.
 */
function routerDefinition(r) {
    const s = state(r);
    if (s.definition === undefined) {
        s.definition = Object.freeze({
            id: s.id,
            operations: Object.freeze([...s.operations.values()]),
            corpora: s.corpora,
            backends: s.backends,
            config: s.config,
            budgets: s.budgets,
        });
    }
    return s.definition;
}
