/**
 * Corpus index builder. The core scores queries against this prebuilt index, so tokenization here
 * and in `native/core/src/corpus.rs` must stay identical: ASCII letters are lowercased, every byte
 * outside `[A-Za-z0-9]` (including all non-ASCII text) separates tokens, and nothing else happens
 * (no stemming, no stop words). Tokens longer than MAX_TOKEN bytes are dropped on both sides.
 */
import type { CorpusDefinition } from '../router/definition';
import type { ManifestCorpus, ManifestCorpusEntry } from './types';

export const MAX_TOKEN = 64;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum) {
      cur += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
    } else if (cur !== '') {
      if (cur.length <= MAX_TOKEN) out.push(cur);
      cur = '';
    }
  }
  return out;
}

/** The text an entry is indexed by: title, tags and body, in that order. */
function indexedText(e: { title: string; text: string; tags?: readonly string[] }): string {
  return [e.title, ...(e.tags ?? []), e.text].join('\n');
}

// Code-unit order equals byte order for ASCII tokens, the only kind tokenize() yields.
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function buildCorpusIndex(def: CorpusDefinition): ManifestCorpus {
  const entries: ManifestCorpusEntry[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, number[]>();
  def.entries.forEach((e, idx) => {
    entries.push([e.id, e.title, e.collection, e.text, [...(e.tags ?? [])]]);
    const tokens = tokenize(indexedText(e));
    lengths.push(tokens.length);
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = postings.get(t);
      if (p === undefined) postings.set(t, (p = []));
      p.push(idx, n);
    }
  });
  const n = entries.length;
  const terms = [...postings.keys()].sort(byCodeUnit);
  // BM25 idf, fixed-point millionths: computed once here so no transcendental function runs in the
  // core, whose float results could otherwise differ in the last bit between targets.
  const idf = terms.map((t) => {
    const df = postings.get(t)!.length / 2;
    return Math.round(Math.log(1 + (n - df + 0.5) / (df + 0.5)) * 1e6);
  });
  const packed = terms.map((t) => {
    const p = postings.get(t)!;
    const pairs: string[] = [];
    for (let i = 0; i < p.length; i += 2) pairs.push(`${p[i]}:${p[i + 1]}`);
    return pairs.join(',');
  });
  return { version: def.version, entries, lengths: lengths.join(' '), terms: terms.join(' '), idf: idf.join(' '), postings: packed.join(' ') };
}
