/**
 * Tool arguments generated from a tool's `inputSchema`, the JSON Schema 2020-12 subset the package
 * projects (../../compiler/projection): strings with minLength/maxLength, string enums, integers and
 * numbers with minimum/maximum, booleans, arrays with items and maxItems (minItems too), objects with
 * properties, required, additionalProperties, an `allOf: [{ anyOf: [{ required }] }]` presence rule
 * and `if`/`then`/`else` on one field, `anyOf: [X, { type: 'null' }]` for nullable, `$ref` into
 * `$defs`, and `{}` for nested JSON. Valid inputs satisfy every keyword; each invalid input breaks
 * exactly one (a wrong type, or one bound overstepped by one). Deterministic: a run repeats.
 */

type Schema = Readonly<Record<string, unknown>>;

export interface GeneratedInput {
  /** What the input is, for the case's name. */
  readonly label: string;
  readonly value: unknown;
}

/** A schema the generator does not read (its message names what): an input would not be what it claims to be. */
export class UnsupportedSchema extends Error {}

/** Text for generated strings: plain visible ASCII, so a mirrored header needs no encoding. */
const TEXT = 'pulse-diff-';
/** A member no projected object declares, for the strict object's undeclared-field input. */
const UNDECLARED = 'pulse_diff_undeclared';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (length: number) => TEXT.repeat(Math.ceil(length / TEXT.length)).slice(0, length);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

type Mode = 'full' | 'minimal';

class Generator {
  constructor(private readonly root: Schema) {}

  /** `s` with `$ref`s into the root's `$defs` followed. */
  resolve(s: Schema): Schema {
    for (let hops = 0; typeof s.$ref === 'string'; hops++) {
      const m = /^#\/\$defs\/(.+)$/.exec(s.$ref);
      const defs = this.root.$defs;
      const target = m !== null && isObject(defs) && Object.prototype.hasOwnProperty.call(defs, m[1]!) ? defs[m[1]!] : undefined;
      if (!isObject(target) || hops > 64) throw new UnsupportedSchema(`a $ref (${JSON.stringify(s.$ref)}) that names no definition in $defs`);
      s = target;
    }
    return s;
  }

  /** The non-null branch of a nullable schema, or undefined when `s` is not one. */
  nullable(s: Schema): Schema | undefined {
    const any = s.anyOf;
    if (s.type !== undefined || !Array.isArray(any) || any.length !== 2 || !any.some((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1)) return undefined;
    const inner = any.find((b) => !(isObject(b) && b.type === 'null'));
    return isObject(inner) ? inner : undefined;
  }

  /**
   * A valid value: `full` gives every optional member and the larger in-range values, `minimal` only
   * what is required, null for nullables, and the smallest values.
   */
  valid(schema: Schema, mode: Mode): unknown {
    const s = this.resolve(schema);
    const inner = this.nullable(s);
    if (inner !== undefined) return mode === 'minimal' ? null : this.valid(inner, mode);
    switch (s.type) {
      case 'string': {
        if (Array.isArray(s.enum)) {
          if (s.enum.length === 0 || typeof s.enum[0] !== 'string') throw new UnsupportedSchema('an enum of other values than strings');
          return mode === 'full' ? s.enum[s.enum.length - 1] : s.enum[0];
        }
        const min = num(s.minLength) ?? 0;
        const max = num(s.maxLength) ?? Infinity;
        return text(mode === 'minimal' ? min : Math.min(max, Math.max(min, 16)));
      }
      case 'integer': {
        const min = num(s.minimum);
        const max = num(s.maximum);
        return mode === 'minimal' ? (min ?? Math.min(0, max ?? 0)) : (max ?? Math.max(1, min ?? 1));
      }
      case 'number': {
        const min = num(s.minimum);
        const max = num(s.maximum);
        if (mode === 'minimal') return min ?? Math.min(0, max ?? 0);
        // A fraction where the range allows one: integral numbers are the integer codec's case.
        if (min !== undefined && max !== undefined) return min + (max - min) / 2;
        return max !== undefined ? max - 0.5 : (min ?? 0) + 0.5;
      }
      case 'boolean':
        return mode === 'full';
      case 'array': {
        if (!isObject(s.items)) throw new UnsupportedSchema('an array schema without items');
        const min = num(s.minItems) ?? 0;
        const max = num(s.maxItems) ?? Infinity;
        const n = mode === 'minimal' ? min : Math.min(max, Math.max(min, 2));
        return Array.from({ length: n }, () => this.valid(s.items as Schema, mode));
      }
      case 'object':
        return this.object(s, mode);
      case undefined:
        if (Object.keys(s).every((k) => k === '$schema' || k === '$anchor' || k === 'description')) return 0; // nested JSON: one byte, no depth
        throw new UnsupportedSchema(`a schema of ${Object.keys(s).join(', ')} without a type`);
      default:
        throw new UnsupportedSchema(`the type ${JSON.stringify(s.type)}`);
    }
  }

  private object(s: Schema, mode: Mode): Record<string, unknown> {
    const properties = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const values = new Map<string, unknown>();
    for (const [name, p] of Object.entries(properties)) values.set(name, this.valid(p as Schema, mode));
    const present = new Set(mode === 'full' ? Object.keys(properties) : required);
    if (mode === 'minimal') {
      // allOf: [{ anyOf: [{ required }…] }]: the first group, unless one is already present.
      const groups = Array.isArray(s.allOf) ? s.allOf.flatMap((a) => (isObject(a) && Array.isArray(a.anyOf) ? [a.anyOf as Schema[]] : [])) : [];
      for (const anyOf of groups) {
        const lists = anyOf.map((g) => (Array.isArray(g.required) ? (g.required as string[]) : []));
        if (!lists.some((l) => l.every((n) => present.has(n)))) for (const n of lists[0] ?? []) present.add(n);
      }
      // if/then/else on one field: the branch the present value selects.
      if (isObject(s.if) && isObject(s.if.properties)) {
        const [field, cond] = Object.entries(s.if.properties)[0] ?? [];
        const holds = field !== undefined && present.has(field) && isObject(cond) && values.get(field) === cond.const;
        const branch = holds ? s.then : s.else;
        if (isObject(branch) && Array.isArray(branch.required)) for (const n of branch.required as string[]) present.add(n);
      }
    }
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
      if (!present.has(name)) continue;
      // defineProperty: a member named "__proto__" stays an own member.
      Object.defineProperty(out, name, { value: values.get(name), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** A value of another JSON type than `schema` admits (never null, which a nullable admits). */
  wrongType(schema: Schema): { value: unknown; what: string } | undefined {
    const s = this.resolve(schema);
    const inner = this.nullable(s);
    if (inner !== undefined) return this.wrongType(inner);
    switch (s.type) {
      case 'string':
        return { value: 7, what: 'a number for a string' };
      case 'integer':
      case 'number':
        return { value: '1', what: `a string for ${s.type === 'integer' ? 'an integer' : 'a number'}` };
      case 'boolean':
        return { value: 'true', what: 'a string for a boolean' };
      case 'array':
        return { value: {}, what: 'an object for an array' };
      case 'object':
        return { value: [], what: 'an array for an object' };
      default:
        return undefined; // nested JSON admits every type
    }
  }

  /** The first bound of `schema` (depth-first, in declared order) overstepped by one, with where it is. */
  bound(schema: Schema, full: unknown, at: readonly (string | number)[]): { path: (string | number)[]; value: unknown; what: string } | undefined {
    const s = this.resolve(schema);
    const inner = this.nullable(s);
    if (inner !== undefined) return this.bound(inner, full, at);
    const here = (value: unknown, what: string) => ({ path: [...at], value, what });
    switch (s.type) {
      case 'string': {
        if (Array.isArray(s.enum)) {
          let other = `${TEXT}unlisted`;
          while (s.enum.includes(other)) other += '-';
          return here(other, 'a value its enum does not list');
        }
        const max = num(s.maxLength);
        if (max !== undefined) return here(text(max + 1), `maxLength ${max} + 1`);
        const min = num(s.minLength);
        return min !== undefined && min > 0 ? here(text(min - 1), `minLength ${min} - 1`) : undefined;
      }
      case 'integer':
      case 'number': {
        // One past the bound, where that is still an exact JSON number of the type.
        const exact = (v: number) => (s.type === 'integer' ? Number.isSafeInteger(v) : Number.isFinite(v));
        const step = (v: number) => (s.type === 'integer' ? 1 : Math.max(1, Math.abs(v)));
        const max = num(s.maximum);
        if (max !== undefined && exact(max + step(max)) && max + step(max) > max) return here(max + step(max), `maximum ${max} + ${step(max)}`);
        const min = num(s.minimum);
        if (min !== undefined && exact(min - step(min)) && min - step(min) < min) return here(min - step(min), `minimum ${min} - ${step(min)}`);
        return undefined;
      }
      case 'array': {
        const max = num(s.maxItems);
        const items = s.items as Schema;
        const fill = (n: number) => Array.from({ length: n }, () => this.valid(items, 'full'));
        if (max !== undefined) return here(fill(max + 1), `maxItems ${max} + 1`);
        const min = num(s.minItems);
        if (min !== undefined && min > 0) return here(fill(min - 1), `minItems ${min} - 1`);
        return Array.isArray(full) && full.length > 0 ? this.bound(items, full[0], [...at, 0]) : undefined;
      }
      case 'object': {
        const properties = isObject(s.properties) ? s.properties : {};
        for (const [name, p] of Object.entries(properties)) {
          const found = this.bound(p as Schema, isObject(full) ? full[name] : undefined, [...at, name]);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }
}

/** `root` with the value at `path` replaced (copies along the path, the rest shared). */
function replaced(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? replaced(v, rest, value) : v));
  const out = { ...(root as Record<string, unknown>) };
  Object.defineProperty(out, head as string, { value: replaced(out[head as string], rest, value), enumerable: true, writable: true, configurable: true });
  return out;
}

const pathText = (path: readonly (string | number)[]) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || 'the arguments';

/** Valid arguments for `inputSchema`: every member, and (when it differs) only the required ones. */
export function validInputs(inputSchema: Schema): GeneratedInput[] {
  const g = new Generator(inputSchema);
  const full = g.valid(inputSchema, 'full');
  const minimal = g.valid(inputSchema, 'minimal');
  const out: GeneratedInput[] = [{ label: 'every member', value: full }];
  if (JSON.stringify(minimal) !== JSON.stringify(full)) out.push({ label: 'required members only', value: minimal });
  return out;
}

/**
 * Invalid arguments for `inputSchema`, each breaking one keyword of an otherwise full input: a
 * member of the wrong type (a required one first), the first bound overstepped, and for an object
 * refusing undeclared members, one. Empty when nothing can be invalid (every member nested JSON).
 */
export function invalidInputs(inputSchema: Schema): GeneratedInput[] {
  const g = new Generator(inputSchema);
  const root = g.resolve(inputSchema);
  if (root.type !== 'object') throw new UnsupportedSchema('a root that is not an object');
  const full = g.valid(root, 'full') as Record<string, unknown>;
  const properties = isObject(root.properties) ? root.properties : {};
  const required = Array.isArray(root.required) ? (root.required as string[]) : [];
  const out: GeneratedInput[] = [];
  // A required member first, one not mirrored into a header (whose mismatch the transport refuses before the input is read).
  const mirrored = (n: string) => isObject(properties[n]) && (properties[n] as Schema)['x-mcp-header'] !== undefined;
  const ordered = [...required, ...Object.keys(properties).filter((n) => !required.includes(n))];
  const names = [...ordered.filter((n) => !mirrored(n)), ...ordered.filter(mirrored)];
  for (const name of names) {
    const wrong = g.wrongType(properties[name] as Schema);
    if (wrong === undefined) continue;
    out.push({ label: `${name}: ${wrong.what}`, value: replaced(full, [name], wrong.value) });
    break;
  }
  const bound = g.bound(root, full, []);
  if (bound !== undefined) out.push({ label: `${pathText(bound.path)}: ${bound.what}`, value: replaced(full, bound.path, bound.value) });
  if (root.additionalProperties === false) {
    let name = UNDECLARED;
    while (Object.prototype.hasOwnProperty.call(properties, name)) name += '_';
    out.push({ label: `an undeclared member ${name}`, value: replaced(full, [name], 1) });
  }
  return out;
}
