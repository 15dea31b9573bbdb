// The fixtures of the official MCP conformance suite (2026-07-28), declared with this library: the
// tool, resource, prompt and completion names its scenarios call. `router` holds the tools;
// `options` the resources, prompts and caching hints, all static and compiled into the core's
// configuration. Run `npm run build` first: this imports the built package.
import { EntityRouter, codec, handlers } from '@pulse-compute/mcp/pulse';
import { contactForm } from './contact.mjs';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const text = (t) => ({ type: 'text', text: t });
const image = { type: 'image', data: PNG, mimeType: 'image/png' };
const embedded = {
  type: 'resource',
  resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
};
const fixed = (blocks) => ({ content: true, handler: handlers.static(blocks) });

const elicitName = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'What is your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};
const elicitColor = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'What is your favourite colour?',
    requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
  },
};
const sample = {
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }], maxTokens: 64 },
};
const roots = { method: 'roots/list' };

/** A content tool that runs once the client has answered every round of `inputs`. */
const answered = (inputs) => ({ inputs, ...fixed([text('Completed with the requested input.')]) });

/** Every fixture tool: name → operation options. */
const TOOLS = {
  test_simple_text: { description: 'Returns simple text content', ...fixed([text('This is a simple text response for testing.')]) },
  test_image_content: { description: 'Returns image content', ...fixed([image]) },
  test_audio_content: { description: 'Returns audio content', ...fixed([{ type: 'audio', data: WAV, mimeType: 'audio/wav' }]) },
  test_embedded_resource: { description: 'Returns an embedded resource', ...fixed([embedded]) },
  test_multiple_content_types: {
    description: 'Returns text, image and resource content',
    ...fixed([text('Multiple content types test:'), image, embedded]),
  },
  test_error_handling: {
    description: 'Always fails: the failure is a tool result with isError, not a protocol error',
    content: true,
    handler: () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  },
  test_tool_with_progress: {
    description: 'Reports progress three times, then answers',
    content: true,
    handler: async (ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100, `step ${step}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return [text('Progress complete')];
    },
  },
  test_logging_tool: { description: 'Answers without log notifications', ...fixed([text('Logging tool completed')]) },
  test_streaming_elicitation: { description: 'Answers without asking the client anything', ...fixed([text('No elicitation needed')]) },
  test_missing_capability: { description: 'Needs sampling: a client without it is refused with -32021', ...answered([{ sample }]) },
  test_input_required_result_elicitation: { description: 'Asks for a name (elicitation)', ...answered([{ user_name: elicitName }]) },
  test_input_required_result_sampling: { description: 'Asks for a sampled message', ...answered([{ sample }]) },
  test_input_required_result_list_roots: { description: 'Asks for the roots', ...answered([{ roots }]) },
  test_input_required_result_request_state: { description: 'Asks for a name, with sealed state', ...answered([{ user_name: elicitName }]) },
  test_input_required_result_multiple_inputs: { description: 'Asks for three inputs at once', ...answered([{ user_name: elicitName, sample, roots }]) },
  test_input_required_result_multi_round: { description: 'Asks in two rounds', ...answered([{ user_name: elicitName }, { color: elicitColor }]) },
  test_input_required_result_tampered_state: { description: 'Refuses tampered state', ...answered([{ user_name: elicitName }]) },
  test_input_required_result_capabilities: {
    description: 'Asks only for what the client can answer',
    ...answered([{ user_name: { ...elicitName, optional: true }, sample: { ...sample, optional: true } }]),
  },
  test_header_param: {
    description: 'Mirrors region into the Mcp-Param-Region header',
    input: codec.object({ region: codec.string({ maxLength: 64 }) }),
    headerParams: { region: 'Region' },
    ...fixed([text('Region accepted.')]),
  },
  json_schema_2020_12_tool: {
    description: 'Tool with JSON Schema 2020-12 features',
    input: contactForm(codec),
    ...fixed([text('ok')]),
  },
};

/** Tools whose handler runs in the core, eligible for the Fastly Native build. */
export const NATIVE_TOOLS = Object.keys(TOOLS).filter((name) => typeof TOOLS[name].handler !== 'function');

function declare(id, names) {
  const r = new EntityRouter(id);
  for (const name of names) r.operation(name, TOOLS[name]);
  return r;
}

export const router = declare('conformance', Object.keys(TOOLS));
/** The same fixtures without the JavaScript handlers: what the Native edge build can serve. */
export const nativeRouter = declare('conformance-native', NATIVE_TOOLS);

/**
 * The suite exercises the 2026-07-28 surface beyond the documented binding, so each part is switched
 * on by name: content blocks, progress over SSE, the server card, resources, prompts and completions.
 */
export const options = {
  serverInfo: { name: 'pulse-conformance', version: '0.1.0' },
  contentBlocks: true,
  progress: true,
  serverCard: true,
  resources: [
    { uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    { uri: 'test://static-binary', name: 'static-binary', mimeType: 'image/png', blob: PNG },
    { uri: 'test://example-resource', name: 'example-resource', mimeType: 'text/plain', text: 'An example resource.' },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      mimeType: 'application/json',
      text: '{"id":"{id}","templateTest":true}',
      completions: { id: ['123', '456', '789'] },
    },
  ],
  prompts: [
    { name: 'test_simple_prompt', description: 'A prompt without arguments', messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }] },
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two arguments',
      arguments: [
        { name: 'arg1', description: 'First argument', required: true, completions: ['test', 'testing', 'tested'] },
        { name: 'arg2', description: 'Second argument', required: true },
      ],
      messages: [{ role: 'user', content: text("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'") }],
    },
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds a resource',
      arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }],
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'An example resource.' } } },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    },
    {
      name: 'test_prompt_with_image',
      description: 'A prompt with an image',
      messages: [
        { role: 'user', content: image },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    },
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that asks for a name first',
      inputs: [{ user_name: elicitName }],
      messages: [{ role: 'user', content: text('A prompt completed after input.') }],
    },
  ],
};

export default router;
