#!/usr/bin/env node
/**
 * Builds edge/corpus.json, the corpus of the deployed service (edge/context.mjs): the project's own
 * documentation split into sections by headings, plus the hand-written collections in ./content/*.md.
 * Deterministic: the same tree gives byte-identical output (sorted sources, stable ids, no clock, no
 * absolute paths). The file holds the router's `corpora` option and the diagnostic ids as they are
 * declared, so the service reads them as plain properties (the lowerer runs no code of the module).
 *
 *   node examples/context/build-corpus.mjs            write edge/corpus.json
 *   node examples/context/build-corpus.mjs --check    exit 1 when edge/corpus.json is stale
 *   node examples/context/build-corpus.mjs --out F    write elsewhere (tests)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Documentation sources, relative to the repository root; missing files are skipped. */
function docSources() {
  const fixed = ['README.md', 'native/core/README.md', 'src/compiler/README.md', 'examples/context/README.md'];
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)
    : [];
  return [...new Set([...fixed, ...docs])].filter((p) => existsSync(join(root, p))).sort();
}

const MAX_ID = 128;
const MAX_TITLE = 512;

function slug(s) {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function shortSlug(heading) {
  const s = slug(heading) || 'intro';
  if (s.length <= 48) return s;
  const cut = s.slice(0, 48);
  return cut.slice(0, cut.lastIndexOf('-') > 16 ? cut.lastIndexOf('-') : 48);
}

/** `docs/contracts.md` → `contracts`, `native/core/README.md` → `native-core`, `README.md` → `readme`. */
function docSlug(path) {
  const s = slug(path.replace(/\.md$/, '').replace(/(^|\/)README$/, '$1'));
  return s.replace(/^docs-/, '') || 'readme';
}

/** Splits markdown into sections at `#`…`####` headings outside code fences. */
function sections(path, text) {
  const out = [];
  const base = docSlug(path);
  const used = new Set();
  let current = { heading: path, lines: [] };
  let fence = false;
  const flush = () => {
    const body = current.lines.join('\n').trim();
    if (body === '') return;
    // Heading slugs are cut at a word boundary so ids stay short and stable under small edits.
    const head = shortSlug(current.heading);
    let id = `${base}.${head}`.slice(0, MAX_ID);
    for (let n = 2; used.has(id); n++) id = `${base}.${head}-${n}`.slice(0, MAX_ID);
    used.add(id);
    out.push({
      id,
      title: `${path}: ${current.heading}`.slice(0, MAX_TITLE),
      collection: 'docs',
      text: body,
      tags: [path],
    });
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = fence ? null : /^(#{1,4})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) {
      flush();
      current = { heading: m[2], lines: [] };
    } else {
      current.lines.push(line);
    }
  }
  flush();
  return out;
}

/**
 * Hand-written collections: `## <id> | <title>` starts an entry, an optional first line
 * `Tags: a, b` tags it, the rest is its text.
 */
function collection(name) {
  const file = join(here, 'content', `${name}.md`);
  const out = [];
  let cur;
  const flush = () => {
    if (cur === undefined) return;
    const lines = cur.lines;
    while (lines.length > 0 && lines[0].trim() === '') lines.shift();
    let tags = [];
    if (lines.length > 0 && /^Tags:/.test(lines[0])) {
      tags = lines.shift().slice(5).split(',').map((t) => t.trim()).filter(Boolean);
    }
    out.push({ id: cur.id, title: cur.title, collection: name, text: lines.join('\n').trim(), tags });
  };
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const m = /^## ([A-Za-z0-9_.-]{1,128}) \| (.+)$/.exec(line);
    if (m) {
      flush();
      cur = { id: m[1], title: m[2].trim(), lines: [] };
    } else if (cur !== undefined) {
      cur.lines.push(line);
    }
  }
  flush();
  return out;
}

export function buildCorpus() {
  const docs = docSources().flatMap((p) => sections(p, readFileSync(join(root, p), 'utf8')));
  const plans = collection('plans');
  const examples = collection('examples');
  const diagnostics = collection('diagnostics');
  const all = [...docs, ...plans, ...examples, ...diagnostics];
  const ids = new Set();
  for (const e of all) {
    if (ids.has(e.id)) throw new Error(`duplicate corpus id ${e.id}`);
    ids.add(e.id);
  }
  const content = JSON.stringify(all);
  const version = `context-${createHash('sha256').update(content).digest('hex').slice(0, 16)}`;
  return {
    version,
    sources: docSources(),
    // `context` searches and reads everything; the collections answer their own tools.
    corpora: {
      context: { version, entries: all },
      plans: { version, entries: plans },
      examples: { version, entries: examples },
      diagnostics: { version, entries: diagnostics },
    },
    diagnosticIds: diagnostics.map((d) => d.id),
  };
}

function main() {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const target = outIdx >= 0 ? args[outIdx + 1] : join(root, 'edge', 'corpus.json');
  const text = JSON.stringify(buildCorpus(), null, 1) + '\n';
  if (args.includes('--check')) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current !== text) {
      process.stderr.write(`${relative(root, target)} is stale: run node examples/context/build-corpus.mjs\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(target, text);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
