"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.codec = void 0;
exports.isCodec = isCodec;
const errors_1 = require("./errors");
const rules_1 = require("./rules");
const NAME_MAX = 128;
/** Descriptors built here; `isCodec` accepts only these, so hand-made look-alikes are refused. */
const built = new WeakSet();
function finish(d) {
    const frozen = Object.freeze(d);
    built.add(frozen);
    return frozen;
}
function isCodec(value) {
    return typeof value === 'object' && value !== null && built.has(value);
}
function isPlainObject(v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
        return false;
    const proto = Object.getPrototypeOf(v);
    return proto === Object.prototype || proto === null;
}
/** Options objects: plain, own keys from `allowed` only. */
function options(v, allowed) {
    if (v === undefined)
        return {};
    if (!isPlainObject(v))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecOptions');
    for (const k of Object.keys(v))
        if (!allowed.includes(k))
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecOptions');
    return v;
}
function intIn(v, lo, hi, msg) {
    if (v === undefined)
        return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi)
        (0, errors_1.fail)('PULSE_ERR_CODEC', msg);
    return v;
}
function ordered(min, max, msg) {
    if (min !== undefined && max !== undefined && min > max)
        (0, errors_1.fail)('PULSE_ERR_CODEC', msg);
}
function withBounds(base, min, max, lo = 'min', hi = 'max') {
    const out = { ...base };
    if (min !== undefined)
        out[lo] = min;
    if (max !== undefined)
        out[hi] = max;
    return out;
}
function string(opts) {
    const o = options(opts, ['minLength', 'maxLength']);
    const min = intIn(o.minLength, 0, rules_1.U32_MAX, 'codecLength');
    const max = intIn(o.maxLength, 0, rules_1.U32_MAX, 'codecLength');
    ordered(min, max, 'codecLength');
    return finish(withBounds({ kind: 'string' }, min, max, 'minLength', 'maxLength'));
}
function boolean() {
    return finish({ kind: 'boolean' });
}
function integer(kind, lo, hi, opts) {
    const o = options(opts, ['min', 'max']);
    const min = intIn(o.min, lo, hi, 'codecBounds');
    const max = intIn(o.max, lo, hi, 'codecBounds');
    ordered(min, max, 'codecBounds');
    return finish(withBounds({ kind }, min, max));
}
function i32(opts) {
    return integer('i32', rules_1.I32_MIN, rules_1.I32_MAX, opts);
}
function u32(opts) {
    return integer('u32', 0, rules_1.U32_MAX, opts);
}
function number(opts) {
    const o = options(opts, ['min', 'max']);
    for (const v of [o.min, o.max]) {
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecNumber');
    }
    const min = o.min;
    const max = o.max;
    ordered(min, max, 'codecNumber');
    return finish(withBounds({ kind: 'number' }, min, max));
}
function enumOf(values) {
    if (!Array.isArray(values) || values.length < 1 || values.length > 256)
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecEnum');
    const seen = new Set();
    for (const v of values) {
        if (typeof v !== 'string' || v.length > NAME_MAX || seen.has(v))
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecEnum');
        seen.add(v);
    }
    return finish({ kind: 'enum', values: Object.freeze([...values]) });
}
function array(items, opts) {
    if (!isCodec(items))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecArray');
    const o = options(opts, ['maxItems']);
    const maxItems = intIn(o.maxItems, 1, 65536, 'codecArray');
    if (maxItems === undefined)
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecArray');
    return finish({ kind: 'array', items, maxItems });
}
function optional(inner) {
    if (!isCodec(inner))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecInner');
    return Object.freeze({ optional: true, codec: inner });
}
function isOptionalField(v) {
    return isPlainObject(v) && v.optional === true && isCodec(v.codec) && Object.keys(v).length === 2;
}
const FIELD_NAME = /^[\s\S]{1,128}$/;
const MAX_GROUPS = 16;
/** A list of distinct declared field names, copied; `undefined` when it is not one. */
function fieldList(v, declared, allowEmpty) {
    if (!Array.isArray(v) || (!allowEmpty && v.length === 0))
        return undefined;
    const out = [];
    for (const name of v) {
        if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(declared, name) || out.includes(name))
            return undefined;
        out.push(name);
    }
    return out;
}
function object(fields, opts) {
    if (!isPlainObject(fields))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecObject');
    const o = options(opts, ['open', 'strict', 'requireAnyOf', 'when']);
    if (o.open !== undefined && typeof o.open !== 'boolean')
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecOptions');
    if (o.strict !== undefined && typeof o.strict !== 'boolean')
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecOptions');
    if (o.open === true && o.strict === true)
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecStrict');
    const names = Object.keys(fields);
    if (names.length > 256)
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecObject');
    // A null-prototype record: a field named like an Object.prototype member stays a plain key.
    const out = Object.create(null);
    for (const name of names) {
        if (!FIELD_NAME.test(name) || name === '__proto__')
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecObject');
        const f = fields[name];
        if (isCodec(f))
            out[name] = Object.freeze({ codec: f });
        else if (isOptionalField(f))
            out[name] = Object.freeze({ codec: f.codec, optional: true });
        else
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecObject');
    }
    const d = { kind: 'object', fields: Object.freeze(out) };
    if (o.open === true)
        d.open = true;
    if (o.strict === true)
        d.strict = true;
    if (o.requireAnyOf !== undefined) {
        const groups = o.requireAnyOf;
        if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_GROUPS)
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecRequireAnyOf');
        d.requireAnyOf = Object.freeze(groups.map((g) => Object.freeze(fieldList(g, out, false) ?? (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecRequireAnyOf'))));
    }
    if (o.when !== undefined) {
        const w = isPlainObject(o.when) ? o.when : (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecWhen');
        for (const k of Object.keys(w))
            if (!['field', 'equals', 'then', 'else'].includes(k))
                (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecWhen');
        const eq = w.equals;
        const scalar = typeof eq === 'string' || typeof eq === 'boolean' || (typeof eq === 'number' && Number.isFinite(eq));
        const then = fieldList(w.then ?? [], out, true);
        const otherwise = fieldList(w.else ?? [], out, true);
        if (typeof w.field !== 'string' ||
            !Object.prototype.hasOwnProperty.call(out, w.field) ||
            !scalar ||
            then === undefined ||
            otherwise === undefined ||
            then.length + otherwise.length === 0)
            (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecWhen');
        d.when = Object.freeze({ field: w.field, equals: eq, then: Object.freeze(then), else: Object.freeze(otherwise) });
    }
    return finish(d);
}
const REF_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const ANCHOR = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/**
 * A named definition: decodes exactly as `inner`; the schema projection publishes it once under
 * `$defs[name]` (with `$anchor` when given) and refers to it with `$ref`.
 */
function ref(name, inner, opts) {
    if (typeof name !== 'string' || !REF_NAME.test(name) || !isCodec(inner))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecRef');
    const o = options(opts, ['anchor']);
    if (o.anchor !== undefined && (typeof o.anchor !== 'string' || !ANCHOR.test(o.anchor)))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecRef');
    const d = { kind: 'ref', name, inner };
    if (o.anchor !== undefined)
        d.anchor = o.anchor;
    return finish(d);
}
function nullable(inner) {
    if (!isCodec(inner))
        (0, errors_1.fail)('PULSE_ERR_CODEC', 'codecInner');
    return finish({ kind: 'nullable', inner });
}
function json(opts) {
    const o = options(opts, ['maxBytes', 'maxDepth']);
    const maxBytes = intIn(o.maxBytes, 1, 1048576, 'codecJson') ?? 4096;
    const maxDepth = intIn(o.maxDepth, 1, 32, 'codecJson') ?? 8;
    return finish({ kind: 'json', maxBytes, maxDepth });
}
function scalarRecord(opts) {
    const o = options(opts, ['maxKeys', 'maxBytes']);
    const maxKeys = intIn(o.maxKeys, 1, 1024, 'codecRecord') ?? 64;
    const maxBytes = intIn(o.maxBytes, 1, 1048576, 'codecRecord') ?? 4096;
    return finish({ kind: 'scalarRecord', maxKeys, maxBytes });
}
exports.codec = Object.freeze({
    string,
    boolean,
    i32,
    u32,
    number,
    enum: enumOf,
    array,
    object,
    ref,
    optional,
    nullable,
    json,
    scalarRecord,
});
