// The admission outcome table as every suite reads it: spec/outcomes.json, decoded. `cargo test`
// (native/core/tests/outcome_table.rs) reads the same file; `npm run build:outcomes` writes it from
// the authored rows in spec/outcomes.rows.ts.
import table from '../../spec/outcomes.json';
import type { OutcomeExpected, OutcomeRequest } from '../../spec/outcomes.rows';

export type { OutcomeExpected } from '../../spec/outcomes.rows';

type Chunk = string | { base64: string } | { text: string; run: string; times: number };

interface Stored {
  profiles: Record<string, { options: Record<string, unknown>; config: unknown }>;
  rows: {
    name: string;
    profile: string;
    only?: 'node' | 'fetch';
    timeoutMs?: number;
    request: Omit<OutcomeRequest, 'body' | 'chunks'> & { body?: Chunk; chunks?: Chunk[] };
    expected: OutcomeExpected;
  }[];
}

export interface OutcomeRow {
  name: string;
  profile: string;
  only?: 'node' | 'fetch';
  timeoutMs?: number;
  request: Omit<OutcomeRequest, 'body' | 'chunks'> & { body?: Uint8Array; chunks?: Uint8Array[] };
  expected: OutcomeExpected;
}

const bytes = (c: Chunk): Uint8Array => {
  if (typeof c === 'string') return new TextEncoder().encode(c);
  if ('base64' in c) return new Uint8Array(Buffer.from(c.base64, 'base64'));
  return new TextEncoder().encode(c.text + c.run.repeat(c.times));
};

const stored = table as unknown as Stored;

/** Host options of each profile the rows name. */
export const OUTCOME_PROFILES: Readonly<Record<string, Record<string, unknown>>> = Object.fromEntries(
  Object.entries(stored.profiles).map(([name, p]) => [name, p.options]),
);

export const OUTCOMES: readonly OutcomeRow[] = stored.rows.map((row) => {
  const { body, chunks, ...request } = row.request;
  return {
    ...row,
    request: {
      ...request,
      ...(body !== undefined ? { body: bytes(body) } : {}),
      ...(chunks !== undefined ? { chunks: chunks.map(bytes) } : {}),
    },
  };
});
