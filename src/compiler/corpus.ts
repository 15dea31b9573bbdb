/**
 * Corpus indexes, built by the core (`native/core/src/corpus_index.rs`): entries are indexed by the
 * same tokenizer that reads queries, and the idf is computed there once, at build time.
 */
import { corpusIndexer } from '../core/engine';
import type { McpCoreSource } from '../options';
import type { CorpusDefinition } from '../router/definition';
import { fail } from './errors';
import type { ManifestCorpus } from './types';

/** Indexes definitions on one core instance of `core` (the package's own by default). */
export function corpusIndexes(core?: McpCoreSource): (def: CorpusDefinition, where: string) => ManifestCorpus {
  const build = corpusIndexer(core);
  return (def, where) => {
    let json: string;
    try {
      json = JSON.stringify(def);
    } catch {
      fail(`${where}: corpus must be plain JSON data`);
    }
    const r = build(json);
    if (!r.ok) fail(`${where}: ${r.message}`);
    return r.index as ManifestCorpus;
  };
}
