import type { McpCoreSource } from '../options';
import type { CorpusDefinition } from '../router/definition';
import type { ManifestCorpus } from './types';
/** Indexes definitions on one core instance of `core` (the package's own by default). */
export declare function corpusIndexes(core?: McpCoreSource): (def: CorpusDefinition, where: string) => ManifestCorpus;
