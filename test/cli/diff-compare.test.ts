// pulse-mcp diff's cases and comparison over real sockets: the generated cases do what their names
// say against the static binding at its lowered limits, a target answering differently is reported
// with both answers (and only agreeing calls count as evidence), a silent target disagrees, and the
// command exits 1 when the Native binary it is given is another build's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcp, type EntityRouter, type McpBinding } from '../../src/pulse';
import { diffCases, toolsListRequest, type DeclaredOperation, type DiffCase } from '../../src/cli/diff/cases';
import { caseLines, compareTargets, REFERENCE, type TargetAddress } from '../../src/cli/diff/compare';
import { exchange } from '../../src/cli/diff/http';
import { nativeServiceBinary } from '../../src/cli/build';
import { serviceConfig } from '../../src/cli/service-module';
import { main } from '../../src/cli/main';

const MODULE = resolve(__dirname, '..', 'fixtures', 'diff', 'service.mjs');
const LIMITS = { requestBytes: 4096, depth: 16 };
const OPTIONS = { timeoutMs: 10_000, concurrency: 4, sealedRequestState: false };

const servers: Server[] = [];
async function serve(listener: RequestListener): Promise<number> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return (server.address() as { port: number }).port;
}

let fixture: { router: EntityRouter; server: McpBinding };
let reference: TargetAddress;
let cases: DiffCase[];
const dir = mkdtempSync(join(tmpdir(), 'pulse-diff-compare-'));

beforeAll(async () => {
  fixture = (await import(MODULE)) as typeof fixture;
  reference = { target: REFERENCE, port: await serve(fixture.server.nodeListener() as unknown as RequestListener) };
  const listed = await exchange(reference.port, toolsListRequest('/mcp'), 5000);
  const operations = (JSON.parse(listed!.body.toString('utf8')) as { result: { tools: DeclaredOperation[] } }).result.tools;
  cases = diffCases(operations, { path: '/mcp', ...LIMITS });
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the generated cases', () => {
  it('call every operation with valid input (a result) and invalid input (refused by the input check)', async () => {
    const calls = cases.filter((c) => c.operation !== undefined);
    expect(new Set(calls.map((c) => c.operation))).toEqual(new Set(['version', 'notes_search', 'notes_read', 'shape']));
    for (const c of calls) {
      const res = await exchange(reference.port, c.request, 5000);
      const body = JSON.parse(res!.body.toString('utf8')) as { result?: { isError?: boolean; content?: { text: string }[] } };
      if (c.name.includes(': valid') || c.name.endsWith(': no arguments')) expect([c.name, res!.status, body.result?.isError]).toEqual([c.name, 200, false]);
      else expect([c.name, res!.status, body.result?.isError, body.result?.content?.[0]?.text]).toEqual([c.name, 200, true, expect.stringMatching(/^Input validation failed at \$/)]);
    }
  });

  it('meet the admission rules at the binding’s own limits', async () => {
    const status = async (name: string) => (await exchange(reference.port, cases.find((c) => c.name === name)!.request, 5000))!.status;
    expect({
      get: await status('GET /mcp'),
      path: await status('POST to another path (/mcp/)'),
      origin: await status('an Origin header (https://pulse-mcp-diff.invalid)'),
      atLimit: await status('a body of exactly the request limit (4096 bytes)'),
      overLimit: await status('a body 1 byte over the request limit (4097 bytes)'),
      atDepth: await status('JSON nested to the depth limit (16 levels)'),
      pastDepth: await status('JSON nested 1 level past the depth limit (17 levels)'),
      contentType: await status('Content-Type text/plain'),
      accept: await status('Accept without application/json'),
      notification: await status('a notification (notifications/cancelled)'),
    }).toEqual({ get: 405, path: 404, origin: 403, atLimit: 200, overLimit: 413, atDepth: 200, pastDepth: 400, contentType: 415, accept: 406, notification: 202 });
    expect(cases.find((c) => c.name === 'a body of exactly the request limit (4096 bytes)')!.request.body!.length).toBe(4096);
  });
});

describe('the comparison', () => {
  it('reports a target answering differently with both answers, and counts only agreeing calls', async () => {
    const other = mcp({ router: fixture.router, serverInfo: { name: 'diff-sample', version: '9.9.9' }, limits: LIMITS });
    const liar: TargetAddress = { target: 'node-native', port: await serve(other.nodeListener() as unknown as RequestListener) };
    const c = await compareTargets(cases, [reference, liar], OPTIONS);
    const discover = c.results.find((r) => r.case.name === 'server/discover')!;
    expect(discover.differences.get('node-native')).toEqual(['body']);
    const lines = caseLines(discover).join('\n');
    expect(lines).toMatch(/^ {2}✗ 200 server\/discover\n {6}node-native differs on body\n {8}node-javascript +200 .*"version\\":\\"0\.0\.1\\".*\n {8}node-native +200 .*"version\\":\\"9\.9\.9\\"/);
    // Admission refusals carry no serverInfo: those agree, every answer with a result does not.
    expect(c.results.find((r) => r.case.name === 'GET /mcp')!.differences.size).toBe(0);
    expect(c.disagreements).toBe(c.results.filter((r) => r.answers.get(REFERENCE)!.body.includes('serverInfo')).length);
    expect(c.disagreements).toBeGreaterThan(10);
    // Every call's answer carries serverInfo: the reference counts each call it answered, the other target none.
    for (const op of ['version', 'notes_search', 'notes_read', 'shape']) {
      expect(c.alike.get(op)).toEqual(new Map([['node-javascript', cases.filter((x) => x.operation === op).length]]));
    }
  });

  it('counts a target that does not answer as a disagreement on every case', async () => {
    const silent: TargetAddress = { target: 'fastly-native', port: await serve((req) => req.socket.destroy()) };
    const c = await compareTargets(cases.slice(0, 3), [reference, silent], OPTIONS);
    expect(c.disagreements).toBe(3);
    expect(caseLines(c.results[0]!)).toEqual([
      '  ✗ 200 server/discover',
      '      fastly-native did not answer',
      expect.stringMatching(/^ {8}node-javascript +200 \(content-type: application\/json.*\) body \d+ bytes "\{/),
      expect.stringMatching(/^ {8}fastly-native +no answer$/),
    ]);
  });

  it('exits 1 and prints both answers when the Native binary given is another build', async () => {
    const variant = await serviceConfig(MODULE, { serverInfo: { name: 'diff-sample', version: '9.9.9' } });
    const wasm = (await nativeServiceBinary(variant.configJson, MODULE, undefined, join(dir, 'variant.wasm'))).path;
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    let code: number;
    try {
      code = await main(['diff', MODULE, '--wasm', wasm, '--viceroy', process.execPath.replace(/node$/, 'no-such-viceroy'), '--report', join(dir, 'variant-evidence.json')]);
    } catch (x) {
      o.mockRestore();
      e.mockRestore();
      throw x;
    }
    o.mockRestore();
    e.mockRestore();
    // A --viceroy that is not there is refused before any target starts.
    expect(code).toBe(1);
    expect(err.join('')).toMatch(/^pulse-mcp: --viceroy \S*no-such-viceroy: not an executable file\n$/);

    out.length = 0;
    err.length = 0;
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      code = await main(['diff', MODULE, '--wasm', wasm, '--report', join(dir, 'variant-evidence.json')]);
    } finally {
      process.env.PATH = saved;
      vi.restoreAllMocks();
    }
    const text = out.join('');
    expect(code).toBe(1);
    expect(text).toContain(`  node-native      ${wasm} (--wasm) in the Node Native host on 127.0.0.1:`);
    expect(text).toContain('  fastly-native    skipped: no viceroy on PATH (give --viceroy <path>');
    expect(text).toMatch(/ {2}✗ 200 server\/discover\n {6}node-native differs on body\n {8}node-javascript +200 .*0\.0\.1.*\n {8}node-native +200 .*9\.9\.9/);
    expect(err.join('')).toMatch(/^pulse-mcp: \d+ cases disagree with node-javascript \(listed above\)\n$/);
  });
});
