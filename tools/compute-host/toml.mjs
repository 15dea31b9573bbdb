// A small TOML reader for fastly.toml: tables, arrays of tables, dotted keys, strings (basic,
// literal, multi-line), integers, floats, booleans, arrays and inline tables. Enough for the
// manifest and its [local_server] section; anything else is a typed error, never a guess.

export class TomlError extends Error {
  constructor(line, what) {
    super(`fastly.toml line ${line}: ${what}`);
    this.code = 'TOML_SYNTAX';
  }
}

export function parseToml(text) {
  const root = {};
  let cur = root;
  let i = 0;
  let line = 1;
  const n = text.length;
  const fail = (what) => {
    throw new TomlError(line, what);
  };
  const skipWs = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  const skipWsNl = () => {
    for (;;) {
      skipWs();
      if (text[i] === '#') while (i < n && text[i] !== '\n') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      } else if (text[i] === '\r' && text[i + 1] === '\n') {
        i += 2;
        line++;
      } else return;
    }
  };
  const endOfLine = () => {
    skipWs();
    if (text[i] === '#') while (i < n && text[i] !== '\n') i++;
    if (i < n && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) fail('expected end of line');
  };
  const bareKey = () => {
    const s = i;
    while (i < n && /[A-Za-z0-9_-]/.test(text[i])) i++;
    if (s === i) fail('expected a key');
    return text.slice(s, i);
  };
  const key = () => {
    const parts = [];
    for (;;) {
      skipWs();
      if (text[i] === '"') parts.push(basicString());
      else if (text[i] === "'") parts.push(literalString());
      else parts.push(bareKey());
      skipWs();
      if (text[i] !== '.') return parts;
      i++;
    }
  };
  const basicString = () => {
    let multi = false;
    if (text.startsWith('"""', i)) {
      multi = true;
      i += 3;
      if (text[i] === '\n') {
        i++;
        line++;
      }
    } else i++;
    let out = '';
    for (;;) {
      if (i >= n) fail('unterminated string');
      const c = text[i];
      if (multi && text.startsWith('"""', i)) {
        i += 3;
        return out;
      }
      if (!multi && c === '"') {
        i++;
        return out;
      }
      if (c === '\n') {
        if (!multi) fail('newline in string');
        line++;
      }
      if (c === '\\') {
        const e = text[i + 1];
        i += 2;
        const simple = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
        if (e in simple) out += simple[e];
        else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          const hex = text.slice(i, i + len);
          if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) fail('bad unicode escape');
          out += String.fromCodePoint(parseInt(hex, 16));
          i += len;
        } else if (multi && (e === '\n' || e === ' ' || e === '\r')) {
          i--;
          while (i < n && /[ \t\r\n]/.test(text[i])) {
            if (text[i] === '\n') line++;
            i++;
          }
        } else fail('bad escape');
        continue;
      }
      out += c;
      i++;
    }
  };
  const literalString = () => {
    const multi = text.startsWith("'''", i);
    const delim = multi ? "'''" : "'";
    i += delim.length;
    if (multi && text[i] === '\n') {
      i++;
      line++;
    }
    const end = text.indexOf(delim, i);
    if (end < 0) fail('unterminated string');
    const s = text.slice(i, end);
    if (!multi && s.includes('\n')) fail('newline in string');
    line += s.split('\n').length - 1;
    i = end + delim.length;
    return s;
  };
  const value = () => {
    skipWs();
    const c = text[i];
    if (c === '"') return basicString();
    if (c === "'") return literalString();
    if (c === '[') {
      i++;
      const arr = [];
      for (;;) {
        skipWsNl();
        if (text[i] === ']') {
          i++;
          return arr;
        }
        arr.push(value());
        skipWsNl();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ]');
      }
    }
    if (c === '{') {
      i++;
      const obj = {};
      skipWs();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        const k = key();
        if (text[i] !== '=') fail('expected =');
        i++;
        assign(obj, k, value());
        skipWs();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail('expected , or }');
      }
    }
    const m = /^(true|false|[+-]?(?:0x[0-9A-Fa-f_]+|[0-9_]+(?:\.[0-9_]+)?(?:[eE][+-]?[0-9_]+)?))/.exec(text.slice(i, i + 64));
    if (!m) fail('unsupported value');
    i += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    const num = Number(m[0].replace(/_/g, ''));
    if (!Number.isFinite(num)) fail('bad number');
    return num;
  };
  const descend = (obj, parts, forArray) => {
    let o = obj;
    parts.forEach((p, idx) => {
      const last = idx === parts.length - 1;
      if (last && forArray) {
        if (o[p] === undefined) o[p] = [];
        if (!Array.isArray(o[p])) fail(`${p} is not an array of tables`);
        const t = {};
        o[p].push(t);
        o = t;
        return;
      }
      if (o[p] === undefined) o[p] = {};
      let next = o[p];
      if (Array.isArray(next)) next = next[next.length - 1];
      if (typeof next !== 'object' || next === null) fail(`${p} is not a table`);
      o = next;
    });
    return o;
  };
  const assign = (obj, parts, v) => {
    const t = descend(obj, parts.slice(0, -1), false);
    const k = parts[parts.length - 1];
    if (Object.prototype.hasOwnProperty.call(t, k)) fail(`duplicate key ${k}`);
    t[k] = v;
  };
  for (;;) {
    skipWsNl();
    if (i >= n) return root;
    if (text[i] === '[') {
      const arr = text[i + 1] === '[';
      i += arr ? 2 : 1;
      const k = key();
      if (arr ? !text.startsWith(']]', i) : text[i] !== ']') fail('expected ]');
      i += arr ? 2 : 1;
      cur = descend(root, k, arr);
      endOfLine();
      continue;
    }
    const k = key();
    if (text[i] !== '=') fail('expected =');
    i++;
    assign(cur, k, value());
    endOfLine();
  }
}
