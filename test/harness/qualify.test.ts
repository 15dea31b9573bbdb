// The qualification harness's own pieces: argument derivation and the recording proxy.
// The real clients run only under `npm run qualify`.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import Ajv from 'ajv';
// @ts-expect-error plain ESM helpers of the harness, without type declarations
import { startRecordingProxy, wireSummary } from '../../tools/qualify/lib.mjs';
// @ts-expect-error plain ESM helpers of the harness, without type declarations
import { readmeAddCommand, TOKEN_VAR } from '../../tools/qualify/claude.mjs';
// @ts-expect-error plain ESM helpers of the harness, without type declarations
import { callOrder, invalidCall, rememberIds, validArgs } from '../../tools/qualify/tool-args.mjs';

describe('the Claude Code command the qualification runs', () => {
  it("is the README's `claude mcp add` line, word for word", () => {
    const line = readFileSync('README.md', 'utf8').split('\n').find((l) => l.startsWith('claude mcp add '));
    const cmd = readmeAddCommand();
    expect(['claude', ...cmd.argv].join(' ').replace(/Authorization: Bearer \S+/, (h) => `'${h}`) + "'").toBe(line);
    expect(cmd).toMatchObject({ url: 'http://127.0.0.1:3000/mcp', name: 'pulse', tokenVar: 'PULSE_MCP_ACCESS_TOKEN' });
    expect(cmd.argv.slice(0, 5)).toEqual(['mcp', 'add', '--transport', 'http', 'pulse']);
    expect(TOKEN_VAR).toBe(cmd.tokenVar);
  });
});

describe('qualify tool arguments', () => {
  const schema = {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 2, maxLength: 200 },
      limit: { type: 'integer', minimum: 1, maximum: 20 },
      kind: { enum: ['guide', 'api'] },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      flag: { type: 'boolean' },
    },
    required: ['query', 'limit', 'kind', 'tags'],
    additionalProperties: false,
  };

  it('derives arguments that satisfy the input schema', () => {
    const args = validArgs({ name: 'unknown_tool', inputSchema: schema });
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(args)).toBe(true);
    expect(Object.keys(args).sort()).toEqual(['kind', 'limit', 'query', 'tags']);
  });

  it('builds an invalid call from the first tool with a required property', () => {
    const tools = [{ name: 'no_input', inputSchema: { type: 'object' } }, { name: 'search', inputSchema: schema }];
    const bad = invalidCall(tools);
    expect(bad.name).toBe('search');
    expect(new Ajv({ strict: false }).compile(schema)(bad.arguments)).toBe(false);
    expect(invalidCall([tools[0]])).toBeNull();
  });

  it('reads by an id an earlier call returned, and orders id lookups last', () => {
    const read = { name: 'read_any', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } };
    const list = { name: 'list_any', inputSchema: { type: 'object' } };
    expect(callOrder([read, list]).map((t: { name: string }) => t.name)).toEqual(['list_any', 'read_any']);
    const seen: string[] = [];
    rememberIds(seen, { entries: [{ id: 'plans.fastly' }, { title: 'no id' }] });
    expect(validArgs(read, seen)).toEqual({ id: 'plans.fastly' });
  });
});

describe('qualify recording proxy', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => { while (closers.length) await closers.pop()!(); });

  async function upstream(): Promise<number> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32022, message: 'Unsupported protocol version' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    return (server.address() as AddressInfo).port;
  }

  it('records whether the expected bearer token arrived, never its value', async () => {
    const token = 'tok-secret-value-123';
    const proxy = await startRecordingProxy(await upstream(), token);
    closers.push(() => proxy.close());
    proxy.setStep('s1');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
    for (const auth of [`Bearer ${token}`, 'Bearer ${PULSE_MCP_ACCESS_TOKEN}', undefined]) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (auth) headers.authorization = auth;
      const r = await fetch(proxy.url, { method: 'POST', headers, body });
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe(-32022);
    }
    const recs = proxy.forStep('s1');
    expect(recs.map((r: { auth: string }) => r.auth)).toEqual(['expected', 'other', 'absent']);
    expect(JSON.stringify(proxy.records)).not.toContain(token);
    const w = wireSummary(recs);
    expect(w.revisions).toEqual(['2025-06-18']);
    expect(w.errors[0]).toMatchObject({ method: 'initialize', status: 400, code: -32022 });
    expect(w.auth).toBe('partly-expected');
  });
});
