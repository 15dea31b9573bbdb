"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handlers = void 0;
exports.isNativeHandler = isNativeHandler;
exports.isPlainJson = isPlainJson;
exports.utf8Length = utf8Length;
exports.deepFreeze = deepFreeze;
exports.staticResultText = staticResultText;
const errors_1 = require("../router/errors");
const rules_1 = require("../router/rules");
/** Native handlers built here; the router accepts only these (or a function). */
const built = new WeakSet();
function isNativeHandler(v) {
    return typeof v === 'object' && v !== null && built.has(v);
}
function finish(h) {
    const frozen = Object.freeze(h);
    built.add(frozen);
    return frozen;
}
function isPlain(v) {
    const p = Object.getPrototypeOf(v);
    return p === Object.prototype || p === null;
}
/**
 * True when `v` is plain JSON data (no functions, cycles, non-finite numbers, class instances) of at
 * most STATIC_RESULT_DEPTH nested arrays and objects, counted as the core counts them.
 */
function isPlainJson(v, outer = 0) {
    if (v === null || typeof v === 'string' || typeof v === 'boolean')
        return true;
    if (typeof v === 'number')
        return Number.isFinite(v);
    if (outer >= rules_1.STATIC_RESULT_DEPTH)
        return false;
    if (Array.isArray(v))
        return v.every((x) => isPlainJson(x, outer + 1));
    if (typeof v === 'object' && isPlain(v)) {
        return Object.keys(v).every((k) => k !== '__proto__' && isPlainJson(v[k], outer + 1));
    }
    return false;
}
const encoder = new TextEncoder();
function utf8Length(s) {
    return encoder.encode(s).length;
}
function deepFreeze(v) {
    if (typeof v === 'object' && v !== null) {
        for (const x of Object.values(v))
            deepFreeze(x);
        Object.freeze(v);
    }
    return v;
}
/**
 * The JSON text of a static result within the core's rule (STATIC_RESULT_RULE), or `undefined`:
 * checked early, for the router and the compiler; the core checks the manifest again.
 */
function staticResultText(value) {
    if (!isPlainJson(value))
        return undefined;
    const text = JSON.stringify(value);
    return utf8Length(text) > rules_1.STATIC_RESULT_BYTES ? undefined : text;
}
/** A fixed result, copied and frozen at declaration. */
function staticResult(value) {
    const text = staticResultText(value);
    if (text === undefined)
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerStatic');
    return finish({ kind: 'static', result: deepFreeze(JSON.parse(text)) });
}
function onlyKeys(v, keys) {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && isPlain(v) && Object.keys(v).every((k) => keys.includes(k));
}
/** Bounded corpus access: `search` (top-k full text), `read` (one entry by id), `list` (all entries). */
function corpus(opts) {
    if (!onlyKeys(opts, ['corpus', 'action', 'topK', 'maxBytes']))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
    const { corpus: name, action, topK, maxBytes } = opts;
    if (!(0, rules_1.isName)(name))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
    if (action !== 'search' && action !== 'read' && action !== 'list')
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
    if (topK !== undefined && !(0, rules_1.inRange)(topK, rules_1.TOP_K))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
    if (maxBytes !== undefined && !(0, rules_1.inRange)(maxBytes, rules_1.HANDLER_BYTES))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerCorpusOptions');
    const h = { kind: 'corpus', corpus: name, action };
    if (topK !== undefined)
        h.topK = topK;
    if (maxBytes !== undefined)
        h.maxBytes = maxBytes;
    return finish(h);
}
/** One governed HTTP call to a declared backend; the core builds the body from the decoded input. */
function backend(opts) {
    if (!onlyKeys(opts, ['backend', 'method', 'path', 'maxBytes', 'timeoutMs']))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    const { backend: name, method, path, maxBytes, timeoutMs } = opts;
    if (!(0, rules_1.isName)(name))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    if (!rules_1.BACKEND_METHODS.includes(method))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    if (!(0, rules_1.isBackendPath)(path))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    if (!(0, rules_1.inRange)(maxBytes, rules_1.HANDLER_BYTES) || !(0, rules_1.inRange)(timeoutMs, rules_1.BACKEND_TIMEOUT_MS))
        (0, errors_1.fail)('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
    return finish({ kind: 'backend', backend: name, method, path, maxBytes, timeoutMs });
}
exports.handlers = Object.freeze({ static: staticResult, corpus, backend });
