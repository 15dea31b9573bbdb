/**
 * The context server's declarations, written once for both entry points: router.ts (source, typed,
 * what tests and bundlers import) and router.mjs (the built package, what `npm start` imports).
 * Takes the `/pulse` module and the built corpus so it imports neither itself.
 *
 * Five read-only operations, all native corpus handlers (eligible for every target, Fastly Native
 * included). Byte caps keep every result, which carries the structured output and its text copy,
 * inside the static binding's 24 KiB tool-result budget.
 */
export function declareContextRouter({ EntityRouter, codec, handlers }, corpus) {
  const { docs, plans, examples, diagnostics } = corpus.entries;
  const corpora = {
    context: { version: corpus.version, entries: [...docs, ...plans, ...examples, ...diagnostics] },
    plans: { version: corpus.version, entries: plans },
    examples: { version: corpus.version, entries: examples },
    diagnostics: { version: corpus.version, entries: diagnostics },
  };

  const text = (maxLength) => codec.string({ maxLength });
  const tags = codec.array(text(64), { maxItems: 32 });
  const query = codec.object({
    query: codec.string({ minLength: 1, maxLength: 512 }),
    limit: codec.optional(codec.u32({ min: 1, max: 8 })),
  });
  const hits = (max) =>
    codec.object({
      results: codec.array(
        codec.object({ id: text(128), title: text(512), collection: text(128), tags, snippet: text(512) }),
        { maxItems: max },
      ),
    });
  const entry = codec.object({
    id: text(128),
    title: text(512),
    collection: text(128),
    tags,
    text: codec.string(),
    truncated: codec.boolean(),
  });
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  return new EntityRouter('context', { corpora })
    .operation('starter_plan', {
      title: 'Starter plan',
      description:
        'Find starter plans for a use case (for example "expose a read-only API", "deploy on Fastly", "serve Codex"). Returns the best matching plans with a snippet; read the whole plan with read_section and its id.',
      input: query,
      output: hits(5),
      hints: readOnly,
      handler: handlers.corpus({ corpus: 'plans', action: 'search', topK: 5, maxBytes: 4096 }),
    })
    .operation('search_docs', {
      title: 'Search the documentation',
      description: `Full-text search (BM25) over the Pulse MCP documentation, plans, examples and diagnostics (corpus ${corpus.version}). Returns section ids, titles and snippets.`,
      input: query,
      output: hits(8),
      hints: readOnly,
      handler: handlers.corpus({ corpus: 'context', action: 'search', topK: 8, maxBytes: 6144 }),
    })
    .operation('read_section', {
      title: 'Read a section',
      description: 'Read one documentation section, plan, example or diagnostic by id (ids come from search_docs, starter_plan and list_examples). Long sections are cut and flagged truncated.',
      input: codec.object({ id: codec.string({ minLength: 1, maxLength: 128 }) }),
      output: entry,
      hints: readOnly,
      handler: handlers.corpus({ corpus: 'context', action: 'read', maxBytes: 8192 }),
    })
    .operation('list_examples', {
      title: 'List maintained examples',
      description: 'List the maintained examples; read one with read_section.',
      output: codec.object({
        entries: codec.array(codec.object({ id: text(128), title: text(512), collection: text(128), tags }), { maxItems: 64 }),
        truncated: codec.boolean(),
      }),
      hints: readOnly,
      handler: handlers.corpus({ corpus: 'examples', action: 'list', topK: 64, maxBytes: 4096 }),
    })
    .operation('explain_diagnostic', {
      title: 'Explain a status or error code',
      description:
        'Explain an HTTP status or JSON-RPC error code this server emits and how to fix the request. id is "http-<status>" (e.g. http-413), "jsonrpc-<code>" (e.g. jsonrpc--32602) or "tool-is-error".',
      input: codec.object({ id: codec.enum(diagnostics.map((d) => d.id)) }),
      output: entry,
      hints: readOnly,
      handler: handlers.corpus({ corpus: 'diagnostics', action: 'read', maxBytes: 4096 }),
    });
}
