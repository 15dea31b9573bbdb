"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lowerSchema = lowerSchema;
/**
 * A schema of `schema-json-registry.json` → the core's codec program: the inverse of the compiler's
 * projection (src/compiler/projection.ts). Only the JSON Schema 2020-12 shapes that projection emits
 * are recognised, each for exactly the codec it came from; anything else is an unsupported node and
 * fails configuration, so a tool is never published with a schema the core would not enforce.
 */
const projection_1 = require("../compiler/projection");
const rules_1 = require("../router/rules");
/**
 * A `json` node publishes `{}`: its byte and depth bounds stay with the backend's codec. This side
 * bounds it by the largest reply the core reads and the deepest JSON it parses.
 */
const JSON_NODE = ['json', 1048576, 32];
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/** RFC 6901 pointer below the schema root (the root itself is the empty string). */
const pointer = (parts) => parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
/** Throws for an unsupported schema; `say` builds the message from the JSON pointer and the reason. */
function lowerSchema(schema, direction, report) {
    const say = (at, reason) => report(at === '' ? '/' : at, reason);
    if (!isObject(schema))
        return say('/', 'a schema must be an object');
    if (schema.$schema !== projection_1.SCHEMA_DIALECT)
        return say('/$schema', `must be ${projection_1.SCHEMA_DIALECT}`);
    const defs = schema.$defs;
    if (defs !== undefined && !isObject(defs))
        return say('/$defs', 'must be an object');
    const { $schema: _dialect, $defs: _defs, ...root } = schema;
    // The projection of a tool without input admits `{}` only.
    if (direction === 'input' && Object.keys(root).length === 2 && root.type === 'object' && root.additionalProperties === false) {
        return { program: null, headers: [], nodes: 1 };
    }
    const nodes = [];
    const headers = [];
    let count = 0;
    const expanding = new Set();
    const walk = (s, level, at, headerAllowed = false) => {
        const where = pointer(at);
        if (level > projection_1.MAX_PROJECTION_LEVELS)
            say(where, `nesting exceeds ${projection_1.MAX_PROJECTION_LEVELS} levels`);
        if (!isObject(s))
            return say(where, 'a schema must be an object');
        const keys = Object.keys(s);
        const only = (allowed) => {
            for (const k of keys)
                if (!allowed.includes(k) && !(headerAllowed && k === 'x-mcp-header'))
                    say(where, `unsupported keyword "${k}"`);
        };
        if (headerAllowed && s['x-mcp-header'] !== undefined) {
            if (typeof s['x-mcp-header'] !== 'string')
                say(`${where}/x-mcp-header`, 'must be a string');
            headers.push([at[at.length - 1], s['x-mcp-header']]);
        }
        if ('$ref' in s) {
            only(['$ref']);
            const ref = s.$ref;
            const name = typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice(8) : undefined;
            if (name === undefined || !isObject(defs) || !Object.prototype.hasOwnProperty.call(defs, name))
                return say(where, 'a $ref must name an entry of $defs');
            if (expanding.has(name))
                return say(where, `$defs "${name}" refers to itself`);
            const { $anchor: _anchor, ...inner } = defs[name];
            expanding.add(name);
            const index = walk(inner, level, ['$defs', name]);
            expanding.delete(name);
            return index;
        }
        count++;
        if (count > projection_1.MAX_PROJECTION_NODES)
            say(where, `the projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        let node;
        if ('anyOf' in s && !('type' in s)) {
            only(['anyOf']);
            const alt = s.anyOf;
            if (!Array.isArray(alt) || alt.length !== 2 || !isObject(alt[1]) || Object.keys(alt[1]).join() !== 'type' || alt[1].type !== 'null')
                return say(where, 'anyOf is supported only as [schema, {"type":"null"}] (nullable)');
            count++;
            node = ['nullable', walk(alt[0], level + 1, [...at, 'anyOf', '0'])];
        }
        else if (keys.length === 0 || (headerAllowed && keys.length === 1 && keys[0] === 'x-mcp-header')) {
            node = JSON_NODE;
        }
        else {
            switch (s.type) {
                case 'string':
                    if ('enum' in s) {
                        only(['type', 'enum']);
                        const values = s.enum;
                        if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string') || new Set(values).size !== values.length)
                            return say(where, 'enum must be a non-empty list of unique strings');
                        node = ['enum', [...values]];
                    }
                    else {
                        only(['type', 'minLength', 'maxLength']);
                        const min = s.minLength ?? 0;
                        const max = s.maxLength ?? null;
                        if (!(0, rules_1.isInt)(min, 0, rules_1.U32_MAX) || (max !== null && !(0, rules_1.isInt)(max, min, rules_1.U32_MAX)))
                            return say(where, 'string length bounds must be integers, minLength ≤ maxLength');
                        node = ['string', min, max];
                    }
                    break;
                case 'boolean':
                    only(['type']);
                    node = ['boolean'];
                    break;
                case 'integer': {
                    only(['type', 'minimum', 'maximum']);
                    const { minimum: min, maximum: max } = s;
                    if ((0, rules_1.isInt)(min, rules_1.I32_MIN, rules_1.I32_MAX) && (0, rules_1.isInt)(max, min, rules_1.I32_MAX))
                        node = ['i32', min, max];
                    else if ((0, rules_1.isInt)(min, 0, rules_1.U32_MAX) && (0, rules_1.isInt)(max, min, rules_1.U32_MAX))
                        node = ['u32', min, max];
                    else
                        return say(where, 'an integer needs minimum and maximum within the i32 or u32 range');
                    break;
                }
                case 'number': {
                    only(['type', 'minimum', 'maximum']);
                    const min = s.minimum ?? null;
                    const max = s.maximum ?? null;
                    for (const v of [min, max])
                        if (v !== null && (typeof v !== 'number' || !Number.isFinite(v)))
                            return say(where, 'number bounds must be finite numbers');
                    if (min !== null && max !== null && min > max)
                        return say(where, 'minimum is greater than maximum');
                    node = ['number', min, max];
                    break;
                }
                case 'array':
                    only(['type', 'items', 'maxItems']);
                    if (!(0, rules_1.isInt)(s.maxItems, 0, rules_1.U32_MAX))
                        return say(where, 'an array needs an integer maxItems (its bound)');
                    node = ['array', walk(s.items, level + 1, [...at, 'items']), s.maxItems];
                    break;
                case 'object':
                    node = object(s, level, at, only);
                    break;
                default:
                    return say(where, s.type === undefined ? 'a schema needs a type' : `unsupported type ${JSON.stringify(s.type)}`);
            }
        }
        nodes.push(node);
        return nodes.length - 1;
    };
    const object = (s, level, at, only) => {
        const where = pointer(at);
        only(['type', 'properties', 'required', 'additionalProperties', 'allOf', 'if', 'then', 'else']);
        const properties = s.properties ?? {};
        if (!isObject(properties))
            return say(`${where}/properties`, 'must be an object');
        const names = Object.keys(properties);
        const required = s.required ?? [];
        if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && names.includes(r)) || new Set(required).size !== required.length)
            return say(`${where}/required`, 'must list declared properties, once each');
        // Inputs: closed objects drop unknown members (no keyword), strict ones refuse them (false),
        // open ones keep them (true). Outputs: closed and strict ones publish false (extras are
        // dropped), open ones nothing (extras are kept).
        const ap = s.additionalProperties;
        if (ap !== undefined && typeof ap !== 'boolean')
            return say(`${where}/additionalProperties`, 'only true or false is supported (records such as ScalarRecord are not)');
        const extra = direction === 'input' ? (ap === false ? 2 : ap === true ? 1 : 0) : ap === false ? 0 : 1;
        const fields = [];
        const topLevel = direction === 'input' && at.length === 0;
        for (const name of names)
            fields.push([name, walk(properties[name], level + 1, [...at, 'properties', name], topLevel), required.includes(name) ? 0 : 1]);
        const index = (list, place) => {
            if (!Array.isArray(list) || !list.every((n) => typeof n === 'string' && names.includes(n)))
                return say(place, 'must list declared properties');
            return list.map((n) => names.indexOf(n));
        };
        const rules = [];
        if (s.allOf !== undefined) {
            const groups = Array.isArray(s.allOf) && s.allOf.length === 1 && isObject(s.allOf[0]) && Object.keys(s.allOf[0]).join() === 'anyOf' ? s.allOf[0].anyOf : undefined;
            if (!Array.isArray(groups) || groups.length === 0 || !groups.every((g) => isObject(g) && Object.keys(g).join() === 'required'))
                return say(`${where}/allOf`, 'is supported only as [{ anyOf: [{ required: [...] }, ...] }]');
            count += 1 + groups.length;
            rules.push(['anyOf', groups.map((g, i) => index(g.required, `${where}/allOf/0/anyOf/${i}/required`))]);
        }
        if (s.if !== undefined) {
            const cond = s.if;
            const props = isObject(cond) && Object.keys(cond).sort().join() === 'properties,required' && isObject(cond.properties) ? Object.keys(cond.properties) : [];
            const field = props.length === 1 ? props[0] : undefined;
            const test = field === undefined ? undefined : cond.properties[field];
            const equals = isObject(test) && Object.keys(test).join() === 'const' ? test.const : undefined;
            if (field === undefined || !names.includes(field) || !Array.isArray(cond.required) || cond.required.join() !== field || !['string', 'number', 'boolean'].includes(typeof equals))
                return say(`${where}/if`, 'is supported only as { properties: { field: { const } }, required: [field] }');
            const branch = (b, name) => {
                if (b === undefined)
                    return [];
                if (!isObject(b) || Object.keys(b).join() !== 'required')
                    return say(`${where}/${name}`, 'is supported only as { required: [...] }');
                count++;
                return index(b.required, `${where}/${name}/required`);
            };
            count += 2;
            rules.push(['if', names.indexOf(field), equals, branch(s.then, 'then'), branch(s.else, 'else')]);
        }
        else if (s.then !== undefined || s.else !== undefined)
            return say(where, 'then/else need an if');
        return rules.length > 0 ? ['object', extra, fields, rules] : ['object', extra, fields];
    };
    walk(root, 1, []);
    return { program: nodes, headers, nodes: count };
}
