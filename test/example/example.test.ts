import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { server, tools as router } from '../../edge/context.mjs';
import corpus from '../../edge/corpus.json';
import { compileRouter } from '../../src/compiler';
import { assertNativeEligible } from '../../src/pulse';

const tmp = mkdtempSync(join(tmpdir(), 'pulse-corpus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function build(out: string): string {
  execFileSync(process.execPath, ['examples/context/build-corpus.mjs', '--out', out], { cwd: join(__dirname, '..', '..') });
  return readFileSync(out, 'utf8');
}

const all = corpus.corpora.context.entries;
const docs = all.filter((e) => e.collection === 'docs');

describe('the corpus build', () => {
  it('is deterministic', () => {
    const a = build(join(tmp, 'a.json'));
    const b = build(join(tmp, 'b.json'));
    expect(a).toBe(b);
    expect(JSON.parse(a).version).toMatch(/^context-[0-9a-f]{16}$/);
    // The committed corpus is the one the documentation builds today (`npm run build:corpus`).
    expect(readFileSync(join(__dirname, '..', '..', 'edge/corpus.json'), 'utf8')).toBe(a);
  });

  it('splits documentation into sections with unique, stable ids', () => {
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(corpus.sources).toContain('docs/contracts.md');
    expect(ids).toContain('contracts.the-typescript-side');
    for (const e of docs) {
      expect(e.collection).toBe('docs');
      expect(e.text.trim()).not.toBe('');
      expect(corpus.sources).toContain(e.tags[0]);
    }
  });

  it('has a diagnostic for every status and code the adapter emits', () => {
    const expected = [
      ...[202, 400, 403, 404, 405, 406, 408, 413, 415, 431, 500, 502].map((s) => `http-${s}`),
      ...[-32700, -32600, -32601, -32602, -32603, -32020, -32022].map((c) => `jsonrpc-${c}`),
    ];
    const ids = corpus.corpora.diagnostics.entries.map((d) => d.id);
    for (const id of expected) expect(ids).toContain(id);
    for (const d of corpus.corpora.diagnostics.entries) expect(d.text).toMatch(/Meaning:[\s\S]*Fix:/);
  });

  it('has starter plans for the typical use cases', () => {
    const ids = corpus.corpora.plans.entries.map((p) => p.id);
    for (const id of ['plan-read-only-api', 'plan-deploy-fastly', 'plan-add-backend-tool', 'plan-codex-legacy']) expect(ids).toContain(id);
  });
});

describe('the context router', () => {
  it('declares the five tools', () => {
    expect(router.operationNames).toEqual(['starter_plan', 'search_docs', 'read_section', 'list_examples', 'explain_diagnostic']);
  });

  it('uses native kinds only and is eligible for Fastly Native', () => {
    expect(() => assertNativeEligible(router)).not.toThrow();
    const { catalog } = compileRouter(router.definition());
    for (const op of catalog.operations) {
      expect(op.handler).toBe('corpus');
      expect(op.targets).toEqual(['fastly-javascript', 'fastly-native', 'node-javascript', 'node-native', 'workerd-javascript']);
    }
  });

  it('compiles to byte-identical artifacts', () => {
    const a = compileRouter(router.definition());
    const b = compileRouter(router.definition());
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('explain_diagnostic admits exactly the diagnostic ids', () => {
    const op = router.definition().operations.find((o) => o.name === 'explain_diagnostic')!;
    const input = op.input as unknown as { fields: { id: { codec: { values: string[] } } } };
    expect(input.fields.id.codec.values).toEqual(corpus.corpora.diagnostics.entries.map((d) => d.id));
    expect(corpus.diagnosticIds).toEqual(input.fields.id.codec.values);
  });

  it('the deployed binding serves every entry through read_section inside the static limits', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'example-test', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    for (const e of all) {
      const res = await server.handle({
        request: new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'read_section',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_section', arguments: { id: e.id }, _meta: meta } }),
        }),
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.result.isError ?? false).toBe(false);
      expect(body.result.structuredContent.id).toBe(e.id);
    }
  });
});
