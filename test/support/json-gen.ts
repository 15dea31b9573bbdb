// fast-check generators of JSON texts (with varied whitespace, escapes and number spellings) and of
// mutations that break them in the ways the issue names: truncation, bad UTF-8, duplicate keys
// (also equal only after unescaping), lone surrogates, deep nesting, huge numbers, byte flips.
import fc from 'fast-check';

export type V =
  | { t: 'null' }
  | { t: 'bool'; v: boolean }
  | { t: 'num'; text: string }
  | { t: 'str'; v: string }
  | { t: 'arr'; items: V[] }
  | { t: 'obj'; members: [string, V][] };

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((a) => a.join(''));

export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc
    .record({
      neg: fc.boolean(),
      int: fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 20)).map(([a, b]) => a + b)),
      frac: fc.option(digits(1, 20), { nil: undefined }),
      exp: fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)), { nil: undefined }),
    })
    .map(({ neg, int, frac, exp }) => (neg ? '-' : '') + int + (frac ? '.' + frac : '') + (exp ? exp.join('') : '')),
  fc.constantFrom('1.7976931348623157e308', '5e-324', '4.9e-324', '1e-400', '-0', '0e0', '9007199254740993', '1E308'),
);

const specialChars = fc.constantFrom('"', '\\', '/', '\u0000', '\u001f', '\n', '\t', '\u2028', '\u{1F600}', '\uffff', '\u00e9');
export const stringValue: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), specialChars), {
    maxLength: 4,
  })
  .map((a) => a.join(''));

export const jsonTree: fc.Arbitrary<V> = fc.letrec<{ value: V }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.constant<V>({ t: 'null' }),
    fc.boolean().map((v): V => ({ t: 'bool', v })),
    numberText.map((text): V => ({ t: 'num', text })),
    stringValue.map((v): V => ({ t: 'str', v })),
    fc.array(tie('value'), { maxLength: 5 }).map((items): V => ({ t: 'arr', items })),
    fc
      .uniqueArray(fc.tuple(fc.oneof(stringValue, fc.constantFrom('a', 'b', 'id', '')), tie('value')), {
        selector: ([k]) => k,
        maxLength: 5,
      })
      .map((members): V => ({ t: 'obj', members })),
  ),
})).value;

/** Deterministic choices for the serializer, from one seed (so a failing case reproduces). */
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

export interface SerializeOptions {
  seed: number;
  /** Duplicate one member of the n-th non-empty object (pre-order, modulo the count). */
  dupObject?: number;
  /** Put a lone surrogate escape into the n-th string. */
  loneString?: { n: number; escape: string };
  /** Replace the n-th number by a literal. */
  numberAt?: { n: number; literal: string };
}

const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const u4 = (c: number) => '\\u' + c.toString(16).padStart(4, '0');

export function serialize(tree: V, o: SerializeOptions): { text: string; applied: boolean } {
  const rnd = prng(o.seed);
  const counts = { obj: 0, str: 0, num: 0 };
  let applied = false;
  const ws = () => (rnd() < 0.8 ? '' : [' ', '\n', '\t', '\r\n  ', '  '][Math.floor(rnd() * 5)]);
  const str = (s: string): string => {
    let out = '"';
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      if (ch === '"' || ch === '\\') out += rnd() < 0.8 ? SHORT[ch] : u4(cp);
      else if (cp < 0x20) out += ch in SHORT && rnd() < 0.7 ? SHORT[ch] : u4(cp);
      else if (rnd() >= 0.15) out += ch;
      else if (ch === '/' && rnd() < 0.5) out += '\\/';
      else if (cp > 0xffff) out += u4(0xd800 + ((cp - 0x10000) >> 10)) + u4(0xdc00 + ((cp - 0x10000) & 0x3ff));
      else out += rnd() < 0.5 ? u4(cp) : '\\u' + cp.toString(16).padStart(4, '0').toUpperCase();
    }
    return out + '"';
  };
  const walk = (v: V): string => {
    switch (v.t) {
      case 'null':
        return 'null';
      case 'bool':
        return String(v.v);
      case 'num': {
        const n = counts.num++;
        if (o.numberAt && n === o.numberAt.n) {
          applied = true;
          return o.numberAt.literal;
        }
        return v.text;
      }
      case 'str': {
        const n = counts.str++;
        if (o.loneString && n === o.loneString.n) {
          applied = true;
          // At the start, so it never lands inside an existing escape.
          return '"' + o.loneString.escape + str(v.v).slice(1);
        }
        return str(v.v);
      }
      case 'arr':
        return '[' + ws() + v.items.map((x) => ws() + walk(x) + ws()).join(',') + ws() + ']';
      case 'obj': {
        const n = v.members.length ? counts.obj++ : -1;
        const members = v.members.map(([k, x]) => ws() + str(k) + ws() + ':' + ws() + walk(x) + ws());
        if (o.dupObject !== undefined && n === o.dupObject) {
          applied = true;
          const [k] = v.members[Math.floor(rnd() * v.members.length)];
          members.splice(Math.floor(rnd() * (members.length + 1)), 0, str(k) + ':0'); // same key, fresh escaping
        }
        return '{' + ws() + members.join(',') + ws() + '}';
      }
    }
  };
  const text = ws() + walk(tree) + ws();
  return { text, applied };
}

export function countNodes(tree: V) {
  const c = { obj: 0, str: 0, num: 0 };
  const walk = (v: V) => {
    if (v.t === 'obj') {
      if (v.members.length) c.obj++;
      v.members.forEach(([, x]) => walk(x));
    } else if (v.t === 'arr') v.items.forEach(walk);
    else if (v.t === 'str') c.str++;
    else if (v.t === 'num') c.num++;
  };
  walk(tree);
  return c;
}

const BAD_UTF8 = [[0xff], [0xfe], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0x80], [0xbf], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3]];
const TOKENS = [',', ':', '"', '{', '}', '[', ']', '\\', '\\u', '\\ud800', '1e400', 'tru', ' ', '\u0001', '-', '0', '.', 'e', '\u00e9'];
const HUGE = ['1e400', '-1e400', '1e309', '1.7976931348623159e308', '1' + '0'.repeat(310), '1e308', '-1.7976931348623157e308', '1e-400', '2e-324'];
const LONE = ['\\ud800', '\\udbff', '\\udc00', '\\udfff', '\\ud800\\u0041', '\\ud800\\ud800', '\\uDC00'];

export type Mutation =
  | { k: 'none' }
  | { k: 'truncate'; at: number }
  | { k: 'insertBytes'; at: number; bytes: number[] }
  | { k: 'flip'; at: number; mask: number }
  | { k: 'delete'; at: number }
  | { k: 'insertText'; at: number; token: string }
  | { k: 'dupKey'; n: number }
  | { k: 'lone'; n: number; escape: string }
  | { k: 'huge'; n: number; literal: string }
  | { k: 'deep'; levels: number; objects: boolean };

const frac = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.constant<Mutation>({ k: 'none' }), weight: 4 },
  { arbitrary: frac.map((at): Mutation => ({ k: 'truncate', at })), weight: 2 },
  { arbitrary: fc.tuple(frac, fc.constantFrom(...BAD_UTF8)).map(([at, bytes]): Mutation => ({ k: 'insertBytes', at, bytes })), weight: 2 },
  { arbitrary: fc.tuple(frac, fc.integer({ min: 1, max: 255 })).map(([at, mask]): Mutation => ({ k: 'flip', at, mask })), weight: 2 },
  { arbitrary: frac.map((at): Mutation => ({ k: 'delete', at })), weight: 1 },
  { arbitrary: fc.tuple(frac, fc.constantFrom(...TOKENS)).map(([at, token]): Mutation => ({ k: 'insertText', at, token })), weight: 2 },
  { arbitrary: fc.nat(20).map((n): Mutation => ({ k: 'dupKey', n })), weight: 2 },
  { arbitrary: fc.tuple(fc.nat(20), fc.constantFrom(...LONE)).map(([n, escape]): Mutation => ({ k: 'lone', n, escape })), weight: 2 },
  { arbitrary: fc.tuple(fc.nat(20), fc.constantFrom(...HUGE)).map(([n, literal]): Mutation => ({ k: 'huge', n, literal })), weight: 2 },
  { arbitrary: fc.tuple(fc.integer({ min: 20, max: 40 }), fc.boolean()).map(([levels, objects]): Mutation => ({ k: 'deep', levels, objects })), weight: 2 },
);

const enc = new TextEncoder();
const cut = (len: number, at: number) => Math.min(len, Math.floor(at * (len + 1)));

/** The JSON text of `tree` with `m` applied, as bytes. */
export function mutatedText(tree: V, seed: number, m: Mutation): Uint8Array {
  const c = countNodes(tree);
  const opts: SerializeOptions = { seed };
  if (m.k === 'dupKey' && c.obj) opts.dupObject = m.n % c.obj;
  if (m.k === 'lone' && c.str) opts.loneString = { n: m.n % c.str, escape: m.escape };
  if (m.k === 'huge' && c.num) opts.numberAt = { n: m.n % c.num, literal: m.literal };
  let { text } = serialize(tree, opts);
  // Where the tree has no node of the kind, wrap it so the mutation still happens.
  if (m.k === 'dupKey' && !c.obj) text = `{"k":${text},"\\u006b":0}`;
  if (m.k === 'lone' && !c.str) text = `["${m.escape}",${text}]`;
  if (m.k === 'huge' && !c.num) text = `[${m.literal},${text}]`;
  if (m.k === 'deep') text = m.objects ? '{"d":'.repeat(m.levels) + text + '}'.repeat(m.levels) : '['.repeat(m.levels) + text + ']'.repeat(m.levels);
  let b = enc.encode(text);
  switch (m.k) {
    case 'truncate':
      b = b.subarray(0, cut(b.length, m.at));
      break;
    case 'insertBytes':
    case 'insertText': {
      const at = cut(b.length, m.at);
      const ins = m.k === 'insertBytes' ? Uint8Array.from(m.bytes) : enc.encode(m.token);
      const out = new Uint8Array(b.length + ins.length);
      out.set(b.subarray(0, at));
      out.set(ins, at);
      out.set(b.subarray(at), at + ins.length);
      b = out;
      break;
    }
    case 'flip':
      if (b.length) {
        b = Uint8Array.from(b);
        const at = Math.min(b.length - 1, Math.floor(m.at * b.length));
        b[at] ^= m.mask;
      }
      break;
    case 'delete':
      if (b.length) {
        const at = Math.min(b.length - 1, Math.floor(m.at * b.length));
        b = Uint8Array.from([...b.subarray(0, at), ...b.subarray(at + 1)]);
      }
      break;
  }
  return b;
}

/** Random split points for chunked delivery (always covers the whole body). */
export function splitAt(body: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((f) => Math.floor(f * body.length)))].filter((p) => p > 0 && p < body.length).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(body.subarray(prev, p));
    prev = p;
  }
  out.push(body.subarray(prev));
  return out.filter((c) => c.length > 0);
}
