#!/usr/bin/env node
// `npm run qualify`: qualifies Pulse MCP with real, pinned MCP clients.
//
//   node tools/qualify/run.mjs                      against the example server (`npm start`)
//   node tools/qualify/run.mjs --against-reference  against tools/qualify/reference-server.mjs (official SDK server 2.4.0)
//   node tools/qualify/run.mjs --server-script edge:serve   another package.json script that honours HOST/PORT/LEGACY_PROTOCOL
//   node tools/qualify/run.mjs --server-command 'node my-host.mjs'   any command honouring HOST/PORT/LEGACY_PROTOCOL
//   options: --only <substring>  --report <file>  --keep-home  --server-timeout <ms>  --no-edge
//
// Two servers are started on free 127.0.0.1 ports: modern-only (default
// profile) and dual (LEGACY_PROTOCOL=2025-06-18). Each sits behind a recording
// proxy that keeps only wire facts (methods, revisions, sizes, error codes,
// whether the expected bearer token arrived) — never token values or client logs.
// The default run then repeats every step against the Native edge binary (`npm run edge:serve`,
// bin/main.wasm and bin/main-legacy.wasm, built first when missing or stale); its step ids start
// with `edge:`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, run, freePort, waitForPort, startRecordingProxy, wireSummary, killAllChildren, errorLine } from './lib.mjs';
import * as claude from './claude.mjs';
import * as codex from './codex.mjs';
import * as inspector from './inspector.mjs';
import { validArgs, invalidCall, callOrder, rememberIds } from './tool-args.mjs';

const QUALIFY_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(QUALIFY_DIR, '..', '..');
const PINS = JSON.parse(fs.readFileSync(path.join(QUALIFY_DIR, 'package.json'), 'utf8')).dependencies;
const CLIENT_PACKAGES = {
  sdk: '@modelcontextprotocol/client',
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  inspector: '@modelcontextprotocol/inspector',
};
const EXAMPLE_TOOLS = ['starter_plan', 'search_docs', 'read_section', 'list_examples', 'explain_diagnostic'];
// The catalog example's tools (examples/catalog), served from its artifacts in front of its backend.
const CATALOG_TOOLS = ['notes_read', 'notes_write', 'notes_status', 'notes_clear'];
const MODERN = '2026-07-28';
// What a full run covers, listed so that a run whose servers never start still shows every gap.
const PLANNED = [
  'sdk.pin2026.discover', 'sdk.pin2026.tools/list', 'sdk.pin2026.tools/call (every tool)', 'sdk.pin2026.tools/call bad input',
  'sdk.auto.dual', 'sdk.legacy0618.dual initialize', 'sdk.legacy0618.dual tools/list+call', 'sdk.legacy0618.modern refused', 'sdk.pin2026.dual',
  'claude.version', 'claude.mcp list modern', 'claude.init tools modern', 'claude.mcp list dual',
  'codex.dual initialize', 'codex.dual mcpServerStatus/list', 'codex.dual thread/start', 'codex.dual mcpServer/tool/call', 'codex.modern refused',
  'inspector.tools/list modern', 'inspector.tools/call modern',
];
const LEGACY = '2025-06-18';
// Loaded after the install step so the SDK client always comes from qualify/node_modules.
let sdk;

function parseArgs(argv) {
  const o = { reference: false, script: 'start', only: null, report: path.join(ROOT, 'qualify-report.json'), keepHome: false, serverTimeoutMs: 60_000, edge: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--against-reference') o.reference = true;
    else if (a === '--only') o.only = argv[++i];
    else if (a === '--server-script') o.script = argv[++i];
    else if (a === '--server-command') o.command = argv[++i];
    else if (a === '--report') o.report = path.resolve(argv[++i]);
    else if (a === '--keep-home') o.keepHome = true;
    else if (a === '--server-timeout') o.serverTimeoutMs = Number(argv[++i]);
    else if (a === '--no-edge') o.edge = false;
    else { console.error(`qualify: unknown option ${a}`); process.exit(2); }
  }
  return o;
}

// ---------------------------------------------------------------- install

async function ensureClients() {
  const lock = path.join(QUALIFY_DIR, 'package-lock.json');
  const marker = path.join(QUALIFY_DIR, 'node_modules', '.qualify-lock.sha256');
  const hash = crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === hash) return { installed: false, ms: 0 };
  process.stdout.write('qualify: installing pinned clients into qualify/node_modules (npm ci, first run only)…\n');
  const r = await run('npm', ['ci', '--prefix', QUALIFY_DIR, '--no-audit', '--no-fund', '--loglevel=error'],
    { env: process.env, cwd: ROOT, timeoutMs: 15 * 60_000 });
  if (r.code !== 0) {
    process.stderr.write(r.stderr.split('\n').filter((l) => !/EBADENGINE|install-scripts/.test(l)).slice(-20).join('\n') + '\n');
    throw new Error(`npm ci --prefix qualify failed (exit ${r.code}${r.timedOut ? ', timed out' : ''})`);
  }
  fs.writeFileSync(marker, hash + '\n');
  return { installed: true, ms: Math.round(r.ms) };
}

function installedVersion(pkg) {
  try { return JSON.parse(fs.readFileSync(path.join(QUALIFY_DIR, 'node_modules', pkg, 'package.json'), 'utf8')).version; } catch { return null; }
}

// ---------------------------------------------------------------- servers

function serverCommand(reference, script, command) {
  if (command) return { cmd: 'sh', args: ['-c', command], label: command };
  if (reference) return { cmd: process.execPath, args: [path.join(QUALIFY_DIR, 'reference-server.mjs')], label: 'tools/qualify/reference-server.mjs (@modelcontextprotocol/server 2.4.0)' };
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const body = pkg.scripts?.[script];
  if (!body) return { error: `package.json has no "${script}" script yet (the server is not wired)` };
  // The script runs directly (not through npm) so the two servers do not both run its `pre` script
  // (for `start`, a dist rebuild) at once; the harness runs that once beforehand instead.
  const pre = pkg.scripts[`pre${script}`] ? `pre${script}` : null;
  return { cmd: 'sh', args: ['-c', body], label: `npm run ${script} (${body})`, prestart: pre && { name: pre, body: pkg.scripts[pre] } };
}

async function prestart(command) {
  if (!command.prestart) return null;
  const r = await run('npm', ['run', '--silent', command.prestart.name], { env: process.env, cwd: ROOT, timeoutMs: 180_000, maxBytes: 64 * 1024 });
  if (r.code !== 0) {
    const tail = (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    throw new Error(`${command.prestart.name} (${command.prestart.body}) failed (exit ${r.code}${r.timedOut ? ', timed out' : ''})${tail ? `: ${tail}` : ''}`);
  }
  return { prestartMs: Math.round(r.ms) };
}

async function startServer(profile, command, token, timeoutMs) {
  const port = await freePort();
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port) };
  delete env.LEGACY_PROTOCOL;
  if (profile === 'dual') env.LEGACY_PROTOCOL = LEGACY;
  const t0 = performance.now();
  const proc = start(command.cmd, command.args, { env, cwd: ROOT, maxBytes: 64 * 1024 });
  try {
    await waitForPort(port, timeoutMs, proc.exited);
  } catch (e) {
    await proc.stop();
    const tail = (proc.out.stderr || proc.out.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    throw new Error(`${profile} server did not start: ${e.message}${tail ? ` — server said: ${tail}` : ''}`);
  }
  const proxy = await startRecordingProxy(port, token);
  return { profile, port, proc, proxy, url: proxy.url, startMs: Math.round(performance.now() - t0) };
}

// ---------------------------------------------------------------- steps

class Steps {
  constructor(only) { this.only = only; this.list = []; this.target = 'pulse'; this.prefix = ''; }
  /** Later steps belong to `target`; their ids get `prefix` (drivers and proxies keep the bare id). */
  block(target, prefix) { this.target = target; this.prefix = prefix; }
  wanted(id) { return !this.only || (this.prefix + id).includes(this.only); }
  /** Runs fn as one pass/fail step; wire facts come from the server's proxy for this step only. */
  async step(id, { client, server, expect, always = false }, fn) {
    if (!always && !this.wanted(id)) return undefined;
    server?.proxy.setStep(id);
    const t0 = performance.now();
    const rec = { id: this.prefix + id, target: this.target, client, server: server?.profile ?? null, expect, ok: false };
    try {
      rec.detail = (await fn()) ?? null;
      rec.ok = true;
    } catch (e) {
      rec.error = errorLine(e).replace(/^Error: /, '');
    }
    rec.ms = Math.round(performance.now() - t0);
    if (server) {
      // Let trailing exchanges (client shutdown, long-lived listens) land in this step's records.
      await new Promise((r) => setTimeout(r, 50));
      server.proxy.setStep(null);
      rec.wire = wireSummary(server.proxy.forStep(id));
      rec.revision = rec.wire.revisions.join(',') || null;
    }
    this.record(rec);
    return rec.ok;
  }
  /** Records a step that could not run because an earlier one failed; it counts as failed. */
  skip(id, { client, server, expect }, reason) {
    if (!this.wanted(id)) return;
    this.record({ id: this.prefix + id, target: this.target, client, server: server?.profile ?? server ?? null, expect, ok: false, skipped: true, error: `not run: ${reason}`, ms: 0 });
  }
  record(rec) {
    this.list.push(rec);
    const mark = rec.ok ? 'pass' : rec.skipped ? 'SKIP' : 'FAIL';
    process.stdout.write(`  ${mark} ${rec.id} (${rec.ms} ms)${rec.ok ? '' : ` — ${rec.error}`}\n`);
  }
}

const need = (cond, msg) => { if (!cond) throw new Error(msg); };
const jsonBytes = (v) => Buffer.byteLength(JSON.stringify(v ?? null));
const summarizeResult = (r) => ({
  isError: r?.isError === true,
  content: (r?.content ?? []).map((c) => c.type),
  structuredContent: r?.structuredContent !== undefined,
  resultBytes: jsonBytes(r),
});

function pickProbeTool(tools, reference) {
  const preferred = reference ? 'add' : 'search_docs';
  return tools.find((t) => t.name === preferred) ?? tools[0];
}

async function sdkSteps(S, ctx) {
  const { modern, dual, reference, expected } = ctx;
  const base = { client: `@modelcontextprotocol/client ${ctx.versions.sdk}` };
  // Pinned 2026-07-28 against the modern-only server: discover, list, every tool, one bad input.
  let conn;
  await S.step('sdk.pin2026.discover', { ...base, server: modern, expect: 'server/discover offers 2026-07-28; era modern' }, async () => {
    conn = await sdk.connect(modern.url, 'pin2026');
    need(conn.era === 'modern' && conn.version === MODERN, `negotiated ${conn.era} ${conn.version}`);
    const d = conn.discover;
    need(d && Array.isArray(d.supportedVersions) && d.supportedVersions.includes(MODERN), 'getDiscoverResult() lacks supportedVersions 2026-07-28');
    return { negotiated: conn.version, supportedVersions: d.supportedVersions, serverInfo: conn.server ?? null, capabilities: Object.keys(d.capabilities ?? {}) };
  });
  let tools = [];
  if (conn) {
    await S.step('sdk.pin2026.tools/list', { ...base, server: modern, expect: expected ? `the ${expected.length} example tools` : 'tools listed' }, async () => {
      tools = await sdk.listTools(conn);
      const names = tools.map((t) => t.name);
      need(names.length > 0, 'no tools');
      if (expected) {
        const missing = expected.filter((n) => !names.includes(n));
        need(!missing.length, `missing example tools: ${missing.join(', ')}`);
      }
      return { tools: names, resultBytes: jsonBytes({ tools }) };
    });
    const seenIds = [];
    for (const tool of callOrder(tools)) {
      await S.step(`sdk.pin2026.tools/call ${tool.name}`, { ...base, server: modern, expect: 'result without isError (structuredContent checked against outputSchema by the SDK)' }, async () => {
        const args = validArgs(tool, seenIds);
        const r = await sdk.callTool(conn, tool.name, args);
        rememberIds(seenIds, r.structuredContent);
        need(r.isError !== true, `isError true: ${JSON.stringify(r.content?.[0]?.text ?? '').slice(0, 200)}`);
        if (tool.outputSchema) need(r.structuredContent && typeof r.structuredContent === 'object', 'tool declares outputSchema but returned no structuredContent');
        return { arguments: Object.keys(args), ...summarizeResult(r) };
      });
    }
    const bad = invalidCall(tools);
    await S.step('sdk.pin2026.tools/call bad input', { ...base, server: modern, expect: 'result with isError true' }, async () => {
      need(bad, 'no tool has a required property to violate');
      const r = await sdk.callTool(conn, bad.name, bad.arguments);
      need(r.isError === true, 'invalid arguments were accepted (isError not true)');
      return { tool: bad.name, wrongTypeFor: bad.property, ...summarizeResult(r) };
    });
    await conn.close();
  } else {
    for (const id of ['sdk.pin2026.tools/list', 'sdk.pin2026.tools/call (every tool)', 'sdk.pin2026.tools/call bad input']) {
      S.skip(id, { ...base, server: modern }, 'sdk.pin2026.discover failed to connect');
    }
  }

  // auto mode against the dual server must still pick the modern era.
  await S.step('sdk.auto.dual', { ...base, server: dual, expect: 'auto negotiates 2026-07-28 on the dual server' }, async () => {
    const c = await sdk.connect(dual.url, 'auto');
    try {
      need(c.era === 'modern' && c.version === MODERN, `negotiated ${c.era} ${c.version}`);
      const t = await sdk.listTools(c);
      return { negotiated: c.version, tools: t.length };
    } finally { await c.close(); }
  });

  // The opt-in legacy profile, as the SDK's default (legacy) mode restricted to 2025-06-18 speaks it.
  let legacyConn;
  await S.step('sdk.legacy0618.dual initialize', { ...base, server: dual, expect: 'initialize answers protocolVersion 2025-06-18' }, async () => {
    legacyConn = await sdk.connect(dual.url, 'legacy0618');
    need(legacyConn.era === 'legacy' && legacyConn.version === LEGACY, `negotiated ${legacyConn.era} ${legacyConn.version}`);
    return { negotiated: legacyConn.version, serverInfo: legacyConn.server ?? null };
  });
  if (legacyConn) {
    await S.step('sdk.legacy0618.dual tools/list+call', { ...base, server: dual, expect: 'list and one call on 2025-06-18' }, async () => {
      const t = await sdk.listTools(legacyConn);
      need(t.length, 'no tools');
      const tool = pickProbeTool(t, reference);
      const r = await sdk.callTool(legacyConn, tool.name, validArgs(tool));
      need(r.isError !== true, 'isError true');
      const wire = dual.proxy.forStep('sdk.legacy0618.dual tools/list+call');
      need(wire.every((x) => x.resultType === undefined), 'a legacy result carries the modern resultType field');
      return { tools: t.length, called: tool.name, ...summarizeResult(r) };
    });
    await legacyConn.close();
  } else S.skip('sdk.legacy0618.dual tools/list+call', { ...base, server: dual }, 'legacy initialize failed');
  await S.step('sdk.legacy0618.modern refused', { ...base, server: modern, expect: 'connect fails with -32022' }, async () => {
    let c;
    try { c = await sdk.connect(modern.url, 'legacy0618'); } catch (e) {
      const line = errorLine(e);
      const wire = modern.proxy.forStep('sdk.legacy0618.modern refused').find((r) => r.rpcMethod === 'initialize');
      need(wire?.errorCode === -32022 || /-32022/.test(line), `failed, but not with -32022: ${line}`);
      return { httpStatus: wire?.status ?? null, code: wire?.errorCode ?? null, message: wire?.errorMessage ?? null };
    }
    await c.close();
    throw new Error(`modern-only server accepted a legacy initialize (${c.version})`);
  });

  // Pinned modern on the dual server: enabling legacy must not disturb the modern path.
  await S.step('sdk.pin2026.dual', { ...base, server: dual, expect: 'modern path unchanged when legacy is enabled' }, async () => {
    const c = await sdk.connect(dual.url, 'pin2026');
    try {
      const t = await sdk.listTools(c);
      const tool = pickProbeTool(t, reference);
      const r = await sdk.callTool(c, tool.name, validArgs(tool));
      need(r.isError !== true, 'isError true');
      return { negotiated: c.version, supportedVersions: c.discover?.supportedVersions, tools: t.length, called: tool.name };
    } finally { await c.close(); }
  });
  return tools;
}

async function claudeSteps(S, ctx) {
  const { modern, dual, home, token } = ctx;
  const bin = claude.claudeBin(QUALIFY_DIR);
  const base = { client: `@anthropic-ai/claude-code ${ctx.versions.claude}` };
  const claudeHome = path.join(home, 'claude');
  fs.mkdirSync(claudeHome, { recursive: true });
  const ok = await S.step('claude.version', { ...base, expect: `claude --version is ${PINS[CLIENT_PACKAGES.claude]}` }, async () => {
    const v = await claude.version(bin, claudeHome);
    need(v === PINS[CLIENT_PACKAGES.claude], `claude --version printed ${v}`);
    return { version: v };
  });
  if (!ok) {
    for (const id of ['claude.mcp list modern', 'claude.init tools modern', 'claude.mcp list dual']) S.skip(id, base, 'claude --version failed');
    return;
  }
  let added;
  await S.step('claude.mcp list modern', { ...base, server: modern, expect: '✔ Connected at 2026-07-28 with the ${VAR} bearer header expanded' }, async () => {
    added = await claude.addAndList({ bin, home: claudeHome, token, name: 'pulse', url: modern.url });
    need(added.storedLiteral, `the stored header is not the literal \${${claude.TOKEN_VAR}}`);
    need(added.connected, `claude mcp list: ${added.status}`);
    const w = wireSummary(modern.proxy.forStep('claude.mcp list modern'));
    need(w.auth === 'expected', `Authorization header on the wire: ${w.auth} (expected the expanded Bearer token on every request)`);
    need(w.revisions.length === 1 && w.revisions[0] === MODERN, `revisions on the wire: ${w.revisions.join(',') || 'none'}`);
    return { status: added.status, headerExpanded: true, listMs: added.listMs, subscriptionsListen: modern.proxy.forStep('claude.mcp list modern').filter((r) => r.rpcMethod === 'subscriptions/listen').map((r) => `${r.status}${r.errorCode !== undefined ? ` ${r.errorCode}` : ''}`)[0] ?? 'not sent' };
  });
  if (added) {
    await S.step('claude.init tools modern', { ...base, server: modern, expect: 'claude -p init event lists every tool (stops at "Not logged in", no model)' }, async () => {
      const r = await claude.initToolNames({ bin, project: added.project, env: added.env, name: 'pulse' });
      need(r.status === 'connected', `server status in init event: ${r.status}`);
      const expected = (ctx.tools ?? []).map((t) => t.name);
      const missing = expected.filter((n) => !r.tools.includes(n));
      need(r.tools.length && !missing.length, `tools missing in Claude Code: ${missing.join(', ') || '(none listed)'}`);
      return { status: r.status, tools: r.tools };
    });
  } else S.skip('claude.init tools modern', { ...base, server: modern }, 'claude mcp add/list failed');
  await S.step('claude.mcp list dual', { ...base, server: dual, expect: '✔ Connected, still 2026-07-28 when legacy is enabled' }, async () => {
    const r = await claude.addAndList({ bin, home: claudeHome, token, name: 'pulse-dual', url: dual.url });
    need(r.connected, `claude mcp list: ${r.status}`);
    const w = wireSummary(dual.proxy.forStep('claude.mcp list dual'));
    need(w.revisions.length === 1 && w.revisions[0] === MODERN, `revisions on the wire: ${w.revisions.join(',') || 'none'}`);
    return { status: r.status };
  });
}

async function codexSteps(S, ctx) {
  const { modern, dual, home, token, reference } = ctx;
  const bin = codex.codexBin(QUALIFY_DIR);
  const base = { client: `@openai/codex ${ctx.versions.codex}` };
  const env = { PATH: process.env.PATH, HOME: path.join(home, 'codex-user'), LANG: 'C.UTF-8', NO_COLOR: '1', RUST_LOG: 'error', [claude.TOKEN_VAR]: token };
  fs.mkdirSync(env.HOME, { recursive: true });
  const wanted = ['codex.dual', 'codex.modern'].some((p) => S.wanted(p));
  if (!wanted) return;

  // Legacy-enabled server: the whole Codex flow.
  const dualHome = path.join(home, 'codex-dual');
  codex.writeConfig(dualHome, 'pulse', dual.url, claude.TOKEN_VAR);
  const app = new codex.AppServer({ bin, codexHome: dualHome, env, cwd: env.HOME });
  try {
    const init = await S.step('codex.dual initialize', { ...base, server: dual, expect: 'app-server initialize + initialized' }, async () => {
      const r = await codex.initialize(app);
      need(r.codexVersion === PINS[CLIENT_PACKAGES.codex], `app-server reports codex ${r.codexVersion}`);
      return r;
    });
    if (!init) {
      for (const id of ['codex.dual mcpServerStatus/list', 'codex.dual thread/start', 'codex.dual mcpServer/tool/call']) S.skip(id, { ...base, server: dual }, 'app-server initialize failed');
      return;
    }
    let status;
    await S.step('codex.dual mcpServerStatus/list', { ...base, server: dual, expect: 'tools listed over 2025-06-18, bearer token expanded' }, async () => {
      status = await codex.serverStatus(app, 'pulse');
      need(status, 'server pulse absent from mcpServerStatus/list');
      need(!status.toolsError, `toolsError: ${String(status.toolsError).slice(0, 300)}`);
      const names = Object.keys(status.tools ?? {});
      const expected = (ctx.tools ?? []).map((t) => t.name);
      const missing = expected.filter((n) => !names.includes(n));
      need(names.length && !missing.length, `tools missing in Codex: ${missing.join(', ') || '(none listed)'}`);
      const w = wireSummary(dual.proxy.forStep('codex.dual mcpServerStatus/list').concat(dual.proxy.forStep('codex.dual initialize')));
      need(w.auth === 'expected', `Authorization header on the wire: ${w.auth}`);
      return { tools: names, serverInfo: status.serverInfo ? { name: status.serverInfo.name, version: status.serverInfo.version } : null, authStatus: status.authStatus };
    });
    let threadId;
    await S.step('codex.dual thread/start', { ...base, server: dual, expect: 'ephemeral thread (no model turn)' }, async () => {
      threadId = await codex.startThread(app, env.HOME);
      return { ephemeral: true };
    });
    if (threadId && status && !status.toolsError) {
      await S.step('codex.dual mcpServer/tool/call', { ...base, server: dual, expect: 'typed result (content, structuredContent when declared)' }, async () => {
        const tools = Object.values(status.tools ?? {});
        const tool = pickProbeTool(tools, reference);
        const r = await codex.callTool(app, threadId, 'pulse', tool.name, validArgs(tool));
        need(Array.isArray(r?.content), 'result has no content array');
        need(r.isError !== true, 'isError true');
        if (tool.outputSchema) need(r.structuredContent && typeof r.structuredContent === 'object', 'no structuredContent although outputSchema is declared');
        return { called: tool.name, ...summarizeResult(r) };
      });
    } else S.skip('codex.dual mcpServer/tool/call', { ...base, server: dual }, 'no thread or no tools');
  } finally { await app.stop(); }

  // Modern-only server: Codex's 2025-06-18 initialize must be refused with -32022.
  const modernHome = path.join(home, 'codex-modern');
  codex.writeConfig(modernHome, 'pulse', modern.url, claude.TOKEN_VAR);
  const app2 = new codex.AppServer({ bin, codexHome: modernHome, env, cwd: env.HOME });
  try {
    await S.step('codex.modern refused', { ...base, server: modern, expect: 'mcpServerStatus/list shows the -32022 refusal' }, async () => {
      await codex.initialize(app2);
      const st = await codex.serverStatus(app2, 'pulse');
      need(st, 'server pulse absent from mcpServerStatus/list');
      need(st.toolsError && /-32022/.test(st.toolsError), `expected a -32022 toolsError, got ${st.toolsError ? String(st.toolsError).slice(0, 200) : `${Object.keys(st.tools ?? {}).length} tools`}`);
      const wire = modern.proxy.forStep('codex.modern refused').find((r) => r.rpcMethod === 'initialize');
      return { httpStatus: wire?.status ?? null, code: wire?.errorCode ?? null, message: wire?.errorMessage ?? null };
    });
  } finally { await app2.stop(); }
}

async function inspectorSteps(S, ctx) {
  const { modern, home, reference } = ctx;
  const base = { client: `@modelcontextprotocol/inspector ${ctx.versions.inspector}` };
  const ihome = path.join(home, 'inspector');
  fs.mkdirSync(ihome, { recursive: true });
  let tools;
  await S.step('inspector.tools/list modern', { ...base, server: modern, expect: '--cli --protocol-era modern lists the tools' }, async () => {
    const r = await inspector.cli({ qualifyDir: QUALIFY_DIR, home: ihome, url: modern.url, method: 'tools/list' });
    tools = r.result.tools ?? r.result.result?.tools;
    need(Array.isArray(tools) && tools.length, 'no tools in the output');
    const w = wireSummary(modern.proxy.forStep('inspector.tools/list modern'));
    need(w.revisions.every((v) => v === MODERN) && w.revisions.length, `revisions on the wire: ${w.revisions.join(',') || 'none'}`);
    return { tools: tools.map((t) => t.name) };
  });
  if (!tools) { S.skip('inspector.tools/call modern', { ...base, server: modern }, 'tools/list failed'); return; }
  await S.step('inspector.tools/call modern', { ...base, server: modern, expect: 'one tools/call at 2026-07-28' }, async () => {
    const tool = pickProbeTool(tools, reference);
    const r = await inspector.cli({ qualifyDir: QUALIFY_DIR, home: ihome, url: modern.url, method: 'tools/call',
      extra: ['--tool-name', tool.name, '--tool-args-json', JSON.stringify(validArgs(tool))] });
    const res = r.result.result ?? r.result;
    need(Array.isArray(res.content), 'no content in the output');
    need(res.isError !== true, 'isError true');
    return { called: tool.name, ...summarizeResult(res) };
  });
}

// ---------------------------------------------------------------- blocks

const EDGE_PREFIX = 'edge:';
const CATALOG_PREFIX = 'catalog:';
const OAUTH_PREFIX = 'oauth:';

/**
 * One target: starts its modern and dual servers, runs every driver against them and stops them.
 * `servers` is the caller's list, so a failure anywhere still stops what was started.
 */
async function qualifyBlock(S, { command, token, timeoutMs, home, reference, versions, expected }, servers) {
  const info = {};
  const mine = [];
  fs.mkdirSync(home, { recursive: true });
  let modern, dual;
  try {
    await S.step('start servers', { client: 'harness', expect: 'modern-only and dual (LEGACY_PROTOCOL=2025-06-18) listen on 127.0.0.1', always: true }, async () => {
      need(!command.error, command.error);
      const built = await prestart(command);
      const r = await Promise.allSettled([startServer('modern', command, token, timeoutMs), startServer('dual', command, token, timeoutMs)]);
      for (const x of r) if (x.status === 'fulfilled') { mine.push(x.value); servers.push(x.value); }
      const failed = r.filter((x) => x.status === 'rejected').map((x) => x.reason.message);
      need(!failed.length, failed.join('; '));
      [modern, dual] = mine;
      for (const s of mine) info[s.profile] = { legacyProtocol: s.profile === 'dual' ? LEGACY : null, startMs: s.startMs };
      return { ...built, modernStartMs: modern.startMs, dualStartMs: dual.startMs };
    });
    if (modern && dual) {
      const ctx = { modern, dual, home, token, reference, versions, expected };
      ctx.tools = await sdkSteps(S, ctx);
      if (!ctx.tools.length) {
        // Later steps compare their tool lists with the SDK's; fetch it once if the SDK steps were filtered out or failed.
        const c = await sdk.connect(modern.url, 'pin2026').catch(() => null);
        if (c) { ctx.tools = await sdk.listTools(c).catch(() => []); await c.close(); }
      }
      await claudeSteps(S, ctx);
      await codexSteps(S, ctx);
      await inspectorSteps(S, ctx);
    } else {
      for (const id of PLANNED) S.skip(id, { client: id.split('.')[0] }, 'the servers did not start');
    }
  } finally {
    for (const s of mine) {
      await s.proxy.close();
      await s.proc.stop();
      servers.splice(servers.indexOf(s), 1);
    }
  }
  return info;
}

/**
 * bin/main.wasm and bin/main-legacy.wasm, built by `npm run edge:build` (the package's own
 * `pulse-mcp build --wasm` over the shipped Native service: a few seconds) for every run, so the
 * clients always meet the current service.
 */
async function ensureEdgeBinaries() {
  const variants = [
    { name: 'main', wasm: path.join(ROOT, 'bin', 'main.wasm') },
    { name: 'legacy', wasm: path.join(ROOT, 'bin', 'main-legacy.wasm') },
  ];
  const r = await run('npm', ['run', '--silent', 'edge:build'], { env: process.env, cwd: ROOT, timeoutMs: 600_000, maxBytes: 64 * 1024 });
  if (r.code !== 0) {
    const tail = (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400);
    throw new Error(`npm run edge:build failed (exit ${r.code}${r.timedOut ? ', timed out' : ''})${tail ? `: ${tail}` : ''}`);
  }
  const out = { buildMs: Math.round(r.ms) };
  for (const v of variants) out[v.name] = { file: path.relative(ROOT, v.wasm), bytes: fs.statSync(v.wasm).size };
  return out;
}

// ---------------------------------------------------------------- report

/** The tree being qualified: HEAD and whether the working tree differs from it (read-only git). */
async function sourceRevision() {
  const head = await run('git', ['rev-parse', 'HEAD'], { cwd: ROOT, env: process.env, timeoutMs: 5000 });
  const st = await run('git', ['status', '--porcelain'], { cwd: ROOT, env: process.env, timeoutMs: 10_000 });
  return { commit: head.code === 0 ? head.stdout.trim() : null, uncommittedChanges: st.code === 0 ? st.stdout.split('\n').filter(Boolean).length : null };
}

function printTable(steps) {
  const rows = steps.map((s) => [s.ok ? 'pass' : s.skipped ? 'SKIP' : 'FAIL', s.id, s.server ?? '-', s.revision ?? '-', `${s.ms}`, s.wire ? `${s.wire.responseBytes}` : '-']);
  const head = ['result', 'step', 'server', 'revision', 'ms', 'resp bytes'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => c.padEnd(w[i])).join('  ');
  let target;
  steps.forEach((s, i) => {
    // One block per target (the example server, then the edge), each under its own header.
    if (s.target !== target) {
      target = s.target;
      const n = steps.filter((x) => x.target === target);
      const title = { edge: 'Native edge binary (npm run edge:serve)', pulse: 'example server (npm start)', catalog: 'catalog-backed tools (npm run example:catalog)', oauth: 'behind a real authorization server (npm run example:oauth)' }[target] ?? target ?? 'harness';
      console.log(`\n${title}: ${n.filter((x) => x.ok).length} passed, ${n.filter((x) => !x.ok).length} failed`);
      console.log(fmt(head));
      console.log(w.map((m) => '-'.repeat(m)).join('  '));
    }
    console.log(fmt(rows[i]));
  });
  console.log('');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  const token = `pq-${crypto.randomBytes(18).toString('base64url')}`;
  const home = path.join(QUALIFY_DIR, '.home', `run-${process.pid}`);
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  // Also on signals: lib.mjs exits the process after killing the children.
  if (!opts.keepHome) process.on('exit', () => fs.rmSync(home, { recursive: true, force: true }));
  const S = new Steps(opts.only);
  const report = {
    generatedAt: new Date().toISOString(),
    target: opts.reference ? 'reference' : opts.command ? 'custom command' : opts.script === 'start' ? 'pulse' : `pulse (npm run ${opts.script})`,
    node: process.version,
    source: await sourceRevision(),
    servers: {},
    clients: {},
  };
  S.block(report.target, '');
  const servers = [];
  try {
    const inst = await ensureClients();
    sdk = await import('./sdk.mjs');
    report.install = inst;
    for (const [k, pkg] of Object.entries(CLIENT_PACKAGES)) report.clients[k] = { package: pkg, pinned: PINS[pkg], installed: installedVersion(pkg) };
    await S.step('install pinned clients', { client: 'npm ci --prefix qualify', expect: 'installed versions equal the pins', always: true }, async () => {
      const off = Object.values(report.clients).filter((c) => c.installed !== c.pinned);
      need(!off.length, `version mismatch: ${off.map((c) => `${c.package} ${c.installed} != ${c.pinned}`).join(', ')}`);
      return { installedNow: inst.installed, ms: inst.ms };
    });
    const versions = Object.fromEntries(Object.entries(report.clients).map(([k, c]) => [k, c.installed]));

    const blockOpts = { token, timeoutMs: opts.serverTimeoutMs, reference: opts.reference, versions, expected: opts.reference ? null : EXAMPLE_TOOLS };
    const command = serverCommand(opts.reference, opts.script, opts.command);
    report.serverCommand = command.label ?? null;
    if (PLANNED.some((id) => S.wanted(id))) report.servers = await qualifyBlock(S, { ...blockOpts, command, home: path.join(home, 'pulse') }, servers);
    // The same clients against the Native edge binary, on the default run only.
    if (opts.edge && !opts.reference && !opts.command && opts.script === 'start' && PLANNED.some((id) => S.wanted(EDGE_PREFIX + id))) {
      S.block('edge', EDGE_PREFIX);
      const edgeCommand = serverCommand(false, 'edge:serve');
      report.edge = { serverCommand: edgeCommand.label ?? null };
      const ready = await S.step('binaries', { client: 'npm run edge:build', expect: "bin/main.wasm and bin/main-legacy.wasm built from the current service by the package's own command", always: true }, async () => {
        report.edge.binaries = await ensureEdgeBinaries();
        return report.edge.binaries;
      });
      if (ready) report.edge.servers = await qualifyBlock(S, { ...blockOpts, command: edgeCommand, home: path.join(home, 'edge') }, servers);
      else for (const id of PLANNED) S.skip(id, { client: id.split('.')[0] }, 'the edge binaries are not available');
    }
    // The same clients against the example behind a real authorization server.
    if (!opts.reference && !opts.command && opts.script === 'start' && (!opts.only || opts.only.includes('oauth'))) {
      S.block('oauth', OAUTH_PREFIX);
      const { oauthSteps } = await import('./oauth.mjs');
      await oauthSteps(S, { home: path.join(home, 'oauth'), versions, qualifyDir: QUALIFY_DIR });
    }
    // The same clients against catalog-backed tools: the host that serves a backend from its artifacts.
    if (!opts.reference && !opts.command && opts.script === 'start' && PLANNED.some((id) => S.wanted(CATALOG_PREFIX + id))) {
      S.block('catalog', CATALOG_PREFIX);
      const catalogCommand = serverCommand(false, 'example:catalog');
      report.catalog = { serverCommand: catalogCommand.label ?? null };
      report.catalog.servers = await qualifyBlock(S, { ...blockOpts, expected: CATALOG_TOOLS, command: catalogCommand, home: path.join(home, 'catalog') }, servers);
    }
  } catch (e) {
    S.list.push({ id: 'harness', ok: false, error: errorLine(e), ms: 0 });
  } finally {
    for (const s of servers.splice(0)) { await s.proxy.close(); await s.proc.stop(); }
    killAllChildren();
  }

  report.steps = S.list;
  report.passed = S.list.filter((s) => s.ok).length;
  report.failed = S.list.length - report.passed;
  report.skipped = S.list.filter((s) => s.skipped).length;
  report.totalMs = Math.round(performance.now() - t0);
  let text = JSON.stringify(report, null, 2) + '\n';
  // Defence in depth: the token is never recorded, but make sure no path leaks it.
  if (text.includes(token)) text = text.split(token).join('[redacted]');
  fs.writeFileSync(opts.report, text);
  printTable(S.list);
  console.log(`report: ${path.relative(process.cwd(), opts.report) || opts.report} (${report.target}, ${(report.totalMs / 1000).toFixed(1)} s)`);
  console.log(`${report.passed} passed, ${report.failed} failed${report.skipped ? ` (${report.skipped} of them not run)` : ''}`);
  process.exitCode = report.failed || !report.passed ? 1 : 0;
}

main();
