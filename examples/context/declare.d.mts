import type * as pulse from '../../src/pulse';

export interface ContextCorpus {
  readonly version: string;
  readonly sources: readonly string[];
  readonly entries: Readonly<Record<'docs' | 'plans' | 'examples' | 'diagnostics', readonly pulse.CorpusEntry[]>>;
}

export function declareContextRouter(p: typeof pulse, corpus: ContextCorpus): pulse.EntityRouter;
