// An independent reference for the core's JSON verdict: RFC 8259 grammar plus the I-JSON rules
// (RFC 7493) the issue adopts: strict UTF-8, unique member names after unescaping, no lone surrogate
// escapes, numbers that are finite doubles, and a nesting limit (containers; the root is level 1).
// Deliberately simple and slow: a recursive-descent parser over the decoded text.

export type Verdict =
  | { ok: true; value: unknown; depth: number }
  | { ok: false; reason: 'utf8' | 'syntax' | 'duplicate' | 'surrogate' | 'number' | 'depth' | 'empty' };

class Fail extends Error {
  constructor(readonly reason: Exclude<Verdict, { ok: true }>['reason']) {
    super(reason);
  }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

export function referenceVerdict(bytes: Uint8Array, maxDepth = 32): Verdict {
  let text: string;
  try {
    // fatal: rejects invalid sequences, overlongs, encoded surrogates and code points above U+10FFFF.
    // ignoreBOM: a BOM is kept as a character, so it is a syntax error like any other stray byte.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'utf8' };
  }
  let i = 0;
  let maxSeen = 0;
  const skip = () => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const expect = (s: string) => {
    if (text.startsWith(s, i)) i += s.length;
    else throw new Fail('syntax');
  };
  const hex4 = (): number => {
    const h = text.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new Fail('syntax');
    i += 4;
    return parseInt(h, 16);
  };
  const string = (): string => {
    expect('"');
    let out = '';
    for (;;) {
      if (i >= text.length) throw new Fail('syntax');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return out;
      }
      if (c < 0x20) throw new Fail('syntax');
      if (c !== 0x5c) {
        out += text[i++];
        continue;
      }
      i++;
      const e = text[i++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const u = hex4();
          if (u >= 0xdc00 && u <= 0xdfff) throw new Fail('surrogate');
          if (u >= 0xd800 && u <= 0xdbff) {
            if (text[i] !== '\\' || text[i + 1] !== 'u') throw new Fail('surrogate');
            i += 2;
            const lo = hex4();
            if (lo < 0xdc00 || lo > 0xdfff) throw new Fail('surrogate');
            out += String.fromCharCode(u, lo);
          } else {
            out += String.fromCharCode(u);
          }
          break;
        }
        default:
          throw new Fail('syntax');
      }
    }
  };
  const value = (depth: number): unknown => {
    skip();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth + 1 > maxDepth) throw new Fail('depth');
      maxSeen = Math.max(maxSeen, depth + 1);
    }
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = Object.create(null);
      const seen = new Set<string>();
      skip();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        skip();
        const k = string();
        if (seen.has(k)) throw new Fail('duplicate');
        seen.add(k);
        skip();
        expect(':');
        obj[k] = value(depth + 1);
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else throw new Fail('syntax');
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else throw new Fail('syntax');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || m[0].length === 0 || m[0] === '-') throw new Fail('syntax');
    i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) throw new Fail('number');
    return n;
  };
  try {
    skip();
    if (i >= text.length) return { ok: false, reason: 'empty' };
    const v = value(0);
    skip();
    if (i !== text.length) throw new Fail('syntax');
    return { ok: true, value: v, depth: maxSeen };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, reason: e.reason };
    throw e;
  }
}
