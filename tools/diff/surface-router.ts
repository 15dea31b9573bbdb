/**
 * The differential run's 2026-07-28 surface: content tools, a multi-round tool, an `x-mcp-header`
 * parameter, an input with 2020-12 presence rules, resources, a template with completions, prompts and the server card, all native, so
 * the Node host, workerd and the Native build must answer them byte for byte alike.
 */
import { EntityRouter, codec, handlers } from '../../src/pulse';

const text = (t: string) => ({ type: 'text', text: t });

export const router = new EntityRouter('diffsurface')
  .operation('blocks', {
    content: true,
    handler: handlers.static([text('two blocks'), { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }]),
  })
  .operation('ask', {
    content: true,
    inputs: [{ name: { method: 'elicitation/create', params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object' } } } }],
    handler: handlers.static([text('answered')]),
  })
  .operation('regional', {
    input: codec.object({ region: codec.string({ maxLength: 16 }) }),
    headerParams: { region: 'Region' },
    content: true,
    handler: handlers.static([text('regional')]),
  })
  .operation('contact', {
    input: codec.object(
      {
        address: codec.optional(codec.ref('address', codec.object({ city: codec.string() }), { anchor: 'addr' })),
        via: codec.optional(codec.enum(['phone', 'email'])),
        phone: codec.optional(codec.string()),
        email: codec.optional(codec.string()),
      },
      { strict: true, requireAnyOf: [['phone'], ['email']], when: { field: 'via', equals: 'phone', then: ['phone'], else: ['email'] } },
    ),
    content: true,
    handler: handlers.static([text('contacted')]),
  });

export const options = {
  serverInfo: { name: 'diff-surface', version: '1' },
  contentBlocks: true,
  // A fixed key: every target must seal alike; the state itself varies with time and is masked.
  requestStateKey: 'diff-surface-request-state-key-0123456789',
  serverCard: true,
  listCacheTtlMs: 60000,
  resources: [
    { uri: 'test://text', name: 'text', mimeType: 'text/plain', text: 'plain text' },
    { uri: 'test://blob', name: 'blob', mimeType: 'application/octet-stream', blob: 'AAEC' },
  ],
  resourceTemplates: [{ uriTemplate: 'test://item/{id}', name: 'item', mimeType: 'text/plain', text: 'item {id}', completions: { id: ['alpha', 'alps', 'beta'] } }],
  prompts: [
    {
      name: 'greet',
      arguments: [{ name: 'who', required: true, completions: ['world', 'wide'] }],
      messages: [{ role: 'user', content: text('Hello, {who}!') }],
    },
  ],
};
