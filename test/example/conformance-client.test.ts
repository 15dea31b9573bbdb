// The official MCP client (2.4.0, pinned to 2026-07-28) against `npm run example:conformance` run
// as a user runs it: it lists and reads resources, gets and completes prompts, and completes
// multi-round tool calls by answering the server's elicitation requests through its own handler.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, type RunningExample } from '../support/example';

let example: RunningExample;
let url: URL;

beforeAll(async () => {
  example = await startExample('examples/conformance/server.mjs');
  url = example.url;
}, 20_000);

afterAll(() => example.stop());

async function connect(answers: unknown[]): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'pulse-conformance-client', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String((request.params as { message?: unknown }).message));
    return answers.shift() as never;
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, asked };
}

describe('the official client against the conformance example', () => {
  it('lists and reads resources, including a template', async () => {
    const { client } = await connect([]);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary', 'test://example-resource']);
      const text = await client.readResource({ uri: 'test://static-text' });
      expect(text.contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]);
      const item = await client.readResource({ uri: 'test://template/123/data' });
      expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ id: '123', templateTest: true });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
    } finally {
      await client.close();
    }
  });

  it('gets prompts with arguments and completes an argument', async () => {
    const { client } = await connect([]);
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('test_prompt_with_arguments');
      const got = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'one', arg2: 'two' } });
      expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } }]);
      const done = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
      expect(done.completion.values).toEqual(['test', 'testing', 'tested']);
    } finally {
      await client.close();
    }
  });

  it('completes a two-round tool call by answering each elicitation', async () => {
    const { client, asked } = await connect([
      { action: 'accept', content: { name: 'Ada' } },
      { action: 'accept', content: { color: 'blue' } },
    ]);
    try {
      const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      expect(asked).toEqual(['What is your name?', 'What is your favourite colour?']);
      expect(result.isError).toBe(false);
      expect(result.content).toEqual([{ type: 'text', text: 'Completed with the requested input.' }]);
    } finally {
      await client.close();
    }
  });

  it('a prompt that asks first completes after one elicitation', async () => {
    const { client, asked } = await connect([{ action: 'accept', content: { name: 'Ada' } }]);
    try {
      const got = await client.getPrompt({ name: 'test_input_required_result_prompt' });
      expect(asked).toEqual(['What is your name?']);
      expect(got.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'A prompt completed after input.' } }]);
    } finally {
      await client.close();
    }
  });
});
