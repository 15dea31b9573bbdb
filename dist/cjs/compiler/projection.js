"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_PROJECTION_LEVELS = exports.MAX_PROJECTION_NODES = exports.SCHEMA_DIALECT = void 0;
exports.compileProgram = compileProgram;
exports.project = project;
exports.noInputSchema = noInputSchema;
const rules_1 = require("../router/rules");
const errors_1 = require("./errors");
exports.SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
exports.MAX_PROJECTION_NODES = 4096;
exports.MAX_PROJECTION_LEVELS = 24;
function bounds(where, lo, hi) {
    if (lo !== undefined && hi !== undefined && lo > hi)
        (0, errors_1.fail)(`${where}: min is greater than max`);
}
function compileProgram(root, where) {
    const nodes = [];
    const walk = (d, level) => {
        if (level > exports.MAX_PROJECTION_LEVELS)
            (0, errors_1.fail)(`${where}: codec nesting exceeds ${exports.MAX_PROJECTION_LEVELS} levels`);
        if (nodes.length >= exports.MAX_PROJECTION_NODES)
            (0, errors_1.fail)(`${where}: codec exceeds ${exports.MAX_PROJECTION_NODES} nodes`);
        let node;
        switch (d.kind) {
            case 'string': {
                const min = d.minLength ?? 0;
                const max = d.maxLength ?? null;
                if (!(0, rules_1.isInt)(min, 0, rules_1.U32_MAX) || (max !== null && !(0, rules_1.isInt)(max, 0, rules_1.U32_MAX)))
                    (0, errors_1.fail)(`${where}: invalid string length bounds`);
                bounds(where, min, max ?? undefined);
                node = ['string', min, max];
                break;
            }
            case 'boolean':
                node = ['boolean'];
                break;
            case 'i32':
            case 'u32': {
                const [lo, hi] = d.kind === 'i32' ? [rules_1.I32_MIN, rules_1.I32_MAX] : [0, rules_1.U32_MAX];
                const min = d.min ?? lo;
                const max = d.max ?? hi;
                if (!(0, rules_1.isInt)(min, lo, hi) || !(0, rules_1.isInt)(max, lo, hi))
                    (0, errors_1.fail)(`${where}: invalid ${d.kind} bounds`);
                bounds(where, min, max);
                node = [d.kind, min, max];
                break;
            }
            case 'number': {
                const min = d.min ?? null;
                const max = d.max ?? null;
                for (const v of [min, max])
                    if (v !== null && !Number.isFinite(v))
                        (0, errors_1.fail)(`${where}: number bounds must be finite`);
                bounds(where, min ?? undefined, max ?? undefined);
                node = ['number', min, max];
                break;
            }
            case 'enum':
                if (!Array.isArray(d.values) || d.values.length === 0 || !d.values.every((v) => typeof v === 'string'))
                    (0, errors_1.fail)(`${where}: enum values must be a non-empty list of strings`);
                if (new Set(d.values).size !== d.values.length)
                    (0, errors_1.fail)(`${where}: enum values must be unique`);
                node = ['enum', [...d.values]];
                break;
            case 'array': {
                if (!(0, rules_1.isInt)(d.maxItems, 0, rules_1.U32_MAX))
                    (0, errors_1.fail)(`${where}: array maxItems must be a non-negative integer`);
                const items = walk(d.items, level + 1);
                node = ['array', items, d.maxItems];
                break;
            }
            case 'object': {
                const names = Object.keys(d.fields);
                const fields = [];
                for (const name of names) {
                    const f = d.fields[name];
                    fields.push([name, walk(f.codec, level + 1), f.optional === true ? 1 : 0]);
                }
                const extra = d.strict === true ? 2 : d.open === true ? 1 : 0;
                const at = (list) => list.map((n) => {
                    const i = names.indexOf(n);
                    return i >= 0 ? i : (0, errors_1.fail)(`${where}: a presence rule names "${n}", which the object does not declare`);
                });
                const rules = [];
                if (d.requireAnyOf !== undefined)
                    rules.push(['anyOf', d.requireAnyOf.map(at)]);
                if (d.when !== undefined)
                    rules.push(['if', at([d.when.field])[0], d.when.equals, at(d.when.then), at(d.when.else)]);
                node = rules.length > 0 ? ['object', extra, fields, rules] : ['object', extra, fields];
                break;
            }
            case 'ref':
                // Decoding is the inner codec's: the name only shapes the published schema.
                return walk(d.inner, level);
            case 'nullable':
                node = ['nullable', walk(d.inner, level + 1)];
                break;
            case 'json':
                if (!(0, rules_1.isInt)(d.maxBytes, 1, rules_1.U32_MAX) || !(0, rules_1.isInt)(d.maxDepth, 0, 64))
                    (0, errors_1.fail)(`${where}: invalid json bounds`);
                node = ['json', d.maxBytes, d.maxDepth];
                break;
            case 'scalarRecord':
                (0, errors_1.fail)(`${where}: scalarRecord has no JSON Schema projection; tools cannot use it`);
            default:
                (0, errors_1.fail)(`${where}: unknown codec kind`);
        }
        nodes.push(node);
        return nodes.length - 1;
    };
    walk(root, 1);
    return nodes;
}
/**
 * Projects a descriptor. Key order is fixed per kind so the output is byte-stable. Closed objects
 * differ by direction: inputs admit and drop unknown fields (so extra properties are allowed),
 * outputs carry declared fields only (`additionalProperties: false`). Strict objects refuse extras
 * (`false`); open inputs keep them (`true`).
 */
function project(root, direction, where) {
    let nodes = 0;
    let levels = 0;
    // Counted as if every definition were written inline at each use, as the core counts the program.
    const below = (count, depth) => {
        nodes += count;
        if (depth > levels)
            levels = depth;
        if (depth > exports.MAX_PROJECTION_LEVELS)
            (0, errors_1.fail)(`${where}: schema projection exceeds ${exports.MAX_PROJECTION_LEVELS} levels`);
        if (nodes > exports.MAX_PROJECTION_NODES)
            (0, errors_1.fail)(`${where}: schema projection exceeds ${exports.MAX_PROJECTION_NODES} nodes`);
    };
    const defs = new Map();
    const walk = (d, level) => {
        if (d.kind === 'ref')
            return definition(d, level);
        nodes++;
        if (level > levels)
            levels = level;
        if (level > exports.MAX_PROJECTION_LEVELS)
            (0, errors_1.fail)(`${where}: schema projection exceeds ${exports.MAX_PROJECTION_LEVELS} levels`);
        if (nodes > exports.MAX_PROJECTION_NODES)
            (0, errors_1.fail)(`${where}: schema projection exceeds ${exports.MAX_PROJECTION_NODES} nodes`);
        switch (d.kind) {
            case 'string': {
                const s = { type: 'string' };
                if (d.minLength !== undefined && d.minLength > 0)
                    s.minLength = d.minLength;
                if (d.maxLength !== undefined)
                    s.maxLength = d.maxLength;
                return s;
            }
            case 'boolean':
                return { type: 'boolean' };
            case 'i32':
                return { type: 'integer', minimum: d.min ?? rules_1.I32_MIN, maximum: d.max ?? rules_1.I32_MAX };
            case 'u32':
                return { type: 'integer', minimum: d.min ?? 0, maximum: d.max ?? rules_1.U32_MAX };
            case 'number': {
                const s = { type: 'number' };
                if (d.min !== undefined)
                    s.minimum = d.min;
                if (d.max !== undefined)
                    s.maximum = d.max;
                return s;
            }
            case 'enum':
                return { type: 'string', enum: [...d.values] };
            case 'array':
                return { type: 'array', items: walk(d.items, level + 1), maxItems: d.maxItems };
            case 'object': {
                const properties = {};
                const required = [];
                for (const name of Object.keys(d.fields)) {
                    const f = d.fields[name];
                    // defineProperty: a field named "__proto__" must stay an own key.
                    Object.defineProperty(properties, name, { value: walk(f.codec, level + 1), enumerable: true, writable: true, configurable: true });
                    if (f.optional !== true)
                        required.push(name);
                }
                const s = { type: 'object', properties };
                if (required.length > 0)
                    s.required = required;
                if (d.strict === true || (direction === 'output' && d.open !== true))
                    s.additionalProperties = false;
                // An open input keeps unknown members: said, so a reader of the schema (such as a host
                // serving these tools from the artifacts) can tell it from a closed input, which drops them.
                else if (direction === 'input' && d.open === true)
                    s.additionalProperties = true;
                if (d.requireAnyOf !== undefined) {
                    below(1 + d.requireAnyOf.length, level + 2);
                    s.allOf = [{ anyOf: d.requireAnyOf.map((g) => ({ required: [...g] })) }];
                }
                if (d.when !== undefined) {
                    const w = d.when;
                    below(2 + (w.then.length > 0 ? 1 : 0) + (w.else.length > 0 ? 1 : 0), level + 2);
                    const cond = {};
                    Object.defineProperty(cond, w.field, { value: { const: w.equals }, enumerable: true, writable: true, configurable: true });
                    s.if = { properties: cond, required: [w.field] };
                    if (w.then.length > 0)
                        s.then = { required: [...w.then] };
                    if (w.else.length > 0)
                        s.else = { required: [...w.else] };
                }
                return s;
            }
            case 'nullable':
                nodes++;
                if (level + 1 > levels)
                    levels = level + 1;
                return { anyOf: [walk(d.inner, level + 1), { type: 'null' }] };
            case 'json':
                // Byte and depth bounds stay with the core's codec: JSON Schema cannot express them.
                return {};
            case 'scalarRecord':
                return (0, errors_1.fail)(`${where}: scalarRecord has no JSON Schema projection; tools cannot use it`);
            default:
                return (0, errors_1.fail)(`${where}: unknown codec kind`);
        }
    };
    const definition = (d, level) => {
        const schema = walk(d.inner, level);
        const known = defs.get(d.name);
        if (known === undefined) {
            for (const [name, other] of defs) {
                if (d.anchor !== undefined && other.anchor === d.anchor)
                    (0, errors_1.fail)(`${where}: $defs "${name}" and "${d.name}" share the anchor "${d.anchor}"`);
            }
            defs.set(d.name, { inner: d.inner, anchor: d.anchor, schema });
        }
        else if (known.inner !== d.inner || known.anchor !== d.anchor) {
            (0, errors_1.fail)(`${where}: $defs name "${d.name}" is given to two different codecs`);
        }
        return { $ref: `#/$defs/${d.name}` };
    };
    const body = walk(root, 1);
    if (defs.size === 0)
        return { schema: { $schema: exports.SCHEMA_DIALECT, ...body }, nodes, levels };
    const $defs = {};
    for (const [name, def] of [...defs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const value = def.anchor === undefined ? def.schema : { $anchor: def.anchor, ...def.schema };
        Object.defineProperty($defs, name, { value, enumerable: true, writable: true, configurable: true });
    }
    return { schema: { $schema: exports.SCHEMA_DIALECT, $defs, ...body }, nodes, levels };
}
/** The projection of a tool without input: only `{}` is admitted. */
function noInputSchema() {
    return { schema: { $schema: exports.SCHEMA_DIALECT, type: 'object', additionalProperties: false }, nodes: 1, levels: 1 };
}
