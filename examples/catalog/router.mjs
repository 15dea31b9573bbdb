// The governed backend's router: a small note store. `pulse-mcp compile` turns it into the
// artifacts the MCP host serves; backend.mjs serves it as JSON-RPC with `jsonRpc(router)`.
import { EntityRouter, codec } from '@pulse-compute/mcp/pulse';

const id = codec.string({ minLength: 1, maxLength: 64 });
const note = codec.object({ id, text: codec.string({ maxLength: 2048 }) });

export const router = new EntityRouter('notes')
  .operation('notes_read', {
    title: 'Read a note',
    description: 'Returns the note stored under an id; its text is null when there is none.',
    input: codec.object({ id }),
    output: codec.object({ id, text: codec.nullable(codec.string({ maxLength: 2048 })) }),
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (ctx, input) => ({ id: input.id, text: (await ctx.kv.get(`note:${input.id}`)) ?? null }),
  })
  .operation('notes_write', {
    title: 'Write a note',
    description: 'Stores a note under an id, replacing what was there.',
    input: note,
    output: codec.object({ id, bytes: codec.u32() }),
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    authenticated: true,
    handler: async (ctx, input) => {
      await ctx.kv.put(`note:${input.id}`, input.text);
      return { id: input.id, bytes: new TextEncoder().encode(input.text).length };
    },
  })
  .operation('notes_status', {
    title: 'Store status',
    description: 'Says the store is up. Takes no input.',
    output: codec.object({ ok: codec.boolean() }),
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: () => ({ ok: true }),
  })
  .operation('notes_clear', {
    title: 'Clear the store marker',
    description: 'Forgets one note. Takes an id, returns nothing.',
    input: codec.object({ id }),
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    authenticated: true,
    handler: async (ctx, input) => {
      await ctx.kv.delete(`note:${input.id}`);
    },
  });

export default router;
