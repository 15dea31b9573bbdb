// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so Claude Code can be driven to
// one MCP tool call without a model: no inference, no account. Its first turn asks for one named
// tool with fixed arguments (streamed as Claude Code expects); once a tool result comes back it ends
// the turn. Claude Code itself runs the tool: its real MCP client and HTTP transport, the header
// expansion and the permission check (`--allowedTools`). Records only request counts.
import http from 'node:http';

/** Starts the stand-in; `tool` is Claude Code's name for it (`mcp__<server>__<tool>`). */
export async function startScriptedModel({ tool, args }) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      requests++;
      if (!req.url.startsWith('/v1/messages')) return void res.writeHead(404).end();
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return void res.writeHead(400).end();
      }
      if (req.url.startsWith('/v1/messages/count_tokens')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"input_tokens":1}');
      const last = body.messages?.at(-1);
      const answered = Array.isArray(last?.content) && last.content.some((c) => c.type === 'tool_result');
      const events = [];
      const ev = (type, data) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', { message: { id: `msg_${requests}`, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
      if (answered) {
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done' } });
      } else {
        ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_${requests}`, name: tool, input: {} } });
        ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(args) } });
      }
      ev('content_block_stop', { index: 0 });
      ev('message_delta', { delta: { stop_reason: answered ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } });
      ev('message_stop', {});
      if (body.stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(events.join(''));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `msg_${requests}`, type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
