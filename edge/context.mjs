/**
 * The deployed service: a read-only context server over this project's own documentation, bound
 * statically with mcp(). Fastly Native serves it (`npm run edge:build` reads these declarations
 * with `pulse-mcp build --target fastly-native`, without running this module); `npm start` serves
 * the same binding on Node.
 *
 * Five read-only operations, all native corpus handlers. Byte caps keep every result, which carries
 * the structured output and its text copy, inside the static binding's 24 KiB tool-result budget.
 * The corpus is built by `npm run build:corpus` (examples/context/build-corpus.mjs).
 */
import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';
import corpus from './corpus.json' with { type: 'json' };

const text64 = codec.string({ maxLength: 64 });
const text128 = codec.string({ maxLength: 128 });
const text512 = codec.string({ maxLength: 512 });
const tags = codec.array(text64, { maxItems: 32 });
const query = codec.object({
  query: codec.string({ minLength: 1, maxLength: 512 }),
  limit: codec.optional(codec.u32({ min: 1, max: 8 })),
});
const hit = codec.object({ id: text128, title: text512, collection: text128, tags, snippet: text512 });
const entry = codec.object({
  id: text128,
  title: text512,
  collection: text128,
  tags,
  text: codec.string(),
  truncated: codec.boolean(),
});
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const tools = new EntityRouter('context', { corpora: corpus.corpora })
  .operation('starter_plan', {
    title: 'Starter plan',
    description:
      'Find starter plans for a use case (for example "expose a read-only API", "deploy on Fastly", "serve Codex"). Returns the best matching plans with a snippet; read the whole plan with read_section and its id.',
    input: query,
    output: codec.object({ results: codec.array(hit, { maxItems: 5 }) }),
    hints: readOnly,
    handler: handlers.corpus({ corpus: 'plans', action: 'search', topK: 5, maxBytes: 4096 }),
  })
  .operation('search_docs', {
    title: 'Search the documentation',
    description: 'Full-text search (BM25) over the Pulse MCP documentation, plans, examples and diagnostics. Returns section ids, titles and snippets.',
    input: query,
    output: codec.object({ results: codec.array(hit, { maxItems: 8 }) }),
    hints: readOnly,
    handler: handlers.corpus({ corpus: 'context', action: 'search', topK: 8, maxBytes: 6144 }),
  })
  .operation('read_section', {
    title: 'Read a section',
    description:
      'Read one documentation section, plan, example or diagnostic by id (ids come from search_docs, starter_plan and list_examples). Long sections are cut and flagged truncated.',
    input: codec.object({ id: codec.string({ minLength: 1, maxLength: 128 }) }),
    output: entry,
    hints: readOnly,
    handler: handlers.corpus({ corpus: 'context', action: 'read', maxBytes: 8192 }),
  })
  .operation('list_examples', {
    title: 'List maintained examples',
    description: 'List the maintained examples; read one with read_section.',
    output: codec.object({
      entries: codec.array(codec.object({ id: text128, title: text512, collection: text128, tags }), { maxItems: 64 }),
      truncated: codec.boolean(),
    }),
    hints: readOnly,
    handler: handlers.corpus({ corpus: 'examples', action: 'list', topK: 64, maxBytes: 4096 }),
  })
  .operation('explain_diagnostic', {
    title: 'Explain a status or error code',
    description:
      'Explain an HTTP status or JSON-RPC error code this server emits and how to fix the request. id is "http-<status>" (e.g. http-413), "jsonrpc-<code>" (e.g. jsonrpc--32602) or "tool-is-error".',
    input: codec.object({ id: codec.enum(corpus.diagnosticIds) }),
    output: entry,
    hints: readOnly,
    handler: handlers.corpus({ corpus: 'diagnostics', action: 'read', maxBytes: 4096 }),
  });

// Exported so the Node example can bind the same router with the legacy profile as well.
export const serverInfo = { name: 'pulse-context', version: '0.1.0' };

export const server = mcp({ router: tools, serverInfo });
