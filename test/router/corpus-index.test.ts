// Corpus indexes come from the core (pulse_corpus_index): the compiler's index is exactly the core's,
// and every term the index holds is found by a query, because one tokenizer reads both.
import { describe, expect, it } from 'vitest';
import { compileRouter, ManifestError } from '../../src/compiler';
import { instantiateCore } from '../../src/core/loader';
import type { CodecDescriptor } from '../../src/router/codec-types';
import type { CorpusDefinition, RouterDefinition } from '../../src/router/definition';
import { callTool, engineFor } from './compiler-harness';

const K64 = 'k'.repeat(64);
const M65 = 'm'.repeat(65);
const X64 = `x${'9'.repeat(63)}`;

const CORPUS: CorpusDefinition = {
  version: '7',
  entries: [
    { id: 'a', title: 'Café au Lait', collection: 'docs', text: 'MIXED case Mixed 😀emoji 東京tokyo', tags: ['Tag-One', 'café'] },
    { id: 'b', title: 'Long', collection: 'docs', text: `${K64} ${M65} ${X64}` },
    { id: 'c', title: '日本語', collection: 'other', text: '', tags: ['MIXED'] },
  ],
};

const str = (maxLength: number): CodecDescriptor => ({ kind: 'string', maxLength });

function router(corpus: CorpusDefinition): RouterDefinition {
  return {
    id: 'idx',
    corpora: { docs: corpus },
    backends: {},
    config: {},
    budgets: { deadlineMs: 4000, fetches: 0, fetchBytes: 0, calls: 0 },
    operations: [
      {
        name: 'search',
        input: { kind: 'object', fields: { query: { codec: str(300) } } },
        output: {
          kind: 'object',
          fields: { results: { codec: { kind: 'array', items: { kind: 'object', fields: { id: { codec: str(8) } } }, maxItems: 8 } } },
        },
        handler: { kind: 'corpus', corpus: 'docs', action: 'search', topK: 8, maxBytes: 4096 },
      },
    ],
  } as unknown as RouterDefinition;
}

/** The core's own answer, straight from the export. */
function coreIndex(definition: unknown): unknown {
  const core = instantiateCore();
  const bytes = new TextEncoder().encode(JSON.stringify(definition));
  const ptr = core.pulse_alloc(bytes.length) >>> 0;
  new Uint8Array(core.memory.buffer).set(bytes, ptr);
  const status = core.pulse_corpus_index(ptr, bytes.length) >>> 0;
  core.pulse_dealloc(ptr, bytes.length);
  const out = new Uint8Array(core.memory.buffer, core.pulse_check_output_ptr() >>> 0, core.pulse_check_output_len() >>> 0);
  expect(status).toBe(1);
  return JSON.parse(new TextDecoder().decode(out));
}

describe('corpus index', () => {
  const { manifest } = compileRouter(router(CORPUS));
  const index = manifest.corpora.docs!;

  it("is the core's index, tokenized by the core's one rule", () => {
    expect(index).toEqual(coreIndex(CORPUS));
    const idf1 = Math.round(Math.log(1 + 2.5 / 1.5) * 1e6);
    const idf2 = Math.round(Math.log(1 + 1.5 / 2.5) * 1e6);
    expect(index).toEqual({
      version: '7',
      entries: [
        ['a', 'Café au Lait', 'docs', 'MIXED case Mixed 😀emoji 東京tokyo', ['Tag-One', 'café']],
        ['b', 'Long', 'docs', `${K64} ${M65} ${X64}`, []],
        ['c', '日本語', 'other', '', ['MIXED']],
      ],
      // Title, tags and text: non-ASCII separates, ASCII is lowercased, 65 bytes is dropped.
      lengths: '11 3 1',
      terms: `au caf case emoji ${K64} lait long mixed one tag tokyo ${X64}`,
      idf: [1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1].map((df) => (df === 1 ? idf1 : idf2)).join(' '),
      postings: '0:1 0:2 0:1 0:1 1:1 0:1 1:1 0:2,2:1 0:1 0:1 0:1 1:1',
    });
  });

  it('finds every indexed term with a query, in any case and between any separators', () => {
    const engine = engineFor(manifest);
    const ids = (query: string): string[] => callTool(engine, 'search', { query }).body.result.structuredContent.results.map((r: { id: string }) => r.id).sort();
    const terms = index.terms.split(' ');
    const groups = index.postings.split(' ');
    terms.forEach((term, i) => {
      const holders = groups[i]!.split(',').map((p) => index.entries[Number(p.split(':')[0])]![0]).sort();
      expect(ids(term), term).toEqual(holders);
      expect(ids(`ß${term.toUpperCase()}—☕`), term).toEqual(holders);
    });
    expect(ids('CAFÉ')).toEqual(['a']);
    expect(ids('😀EMOJI')).toEqual(['a']);
    expect(ids('東京')).toEqual([]);
    expect(ids(M65)).toEqual([]);
    expect(ids(`${M65}-long`)).toEqual(['b']);
  });

  it('refuses a malformed definition with the core message, naming the corpus', () => {
    const bad = { version: '1', entries: [{ id: 'a', title: 't', collection: 'c', text: 3 }] } as unknown as CorpusDefinition;
    expect(() => compileRouter(router(bad))).toThrow(new ManifestError('corpus "docs": corpus entry id, title, collection and text must be strings'));
    const lone = { version: '1', entries: [{ id: 'a', title: 't', collection: 'c', text: '\ud800' }] };
    expect(() => compileRouter(router(lone))).toThrow(new ManifestError('corpus "docs": corpus definition is not JSON: Lone surrogate escape in JSON string'));
  });
});
