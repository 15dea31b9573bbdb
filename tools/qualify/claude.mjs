// Driver for Claude Code 2.1.332 (native executable from qualify/node_modules),
// run headless with an isolated HOME, no login and no model turn.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './lib.mjs';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');
// The README's server URL; the only part of its command the qualification changes.
const README_URL = 'http://127.0.0.1:3000/mcp';

/** Splits one shell line: words, with '…' quoted literally (what the README's line uses). */
function shellWords(line) {
  const words = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]);
  return words;
}

/**
 * The README's `claude mcp add …` line, as argv after `claude`. Users paste exactly this, so the
 * qualification runs exactly this, with the port of the server under test.
 */
export function readmeAddCommand() {
  const lines = fs.readFileSync(README, 'utf8').split('\n').filter((l) => l.startsWith('claude mcp add '));
  if (lines.length !== 1) throw new Error(`README.md has ${lines.length} \`claude mcp add\` lines; the qualification runs exactly one`);
  const words = shellWords(lines[0]);
  if (!words.includes(README_URL)) throw new Error(`README.md's claude mcp add line does not name ${README_URL}`);
  const header = words[words.indexOf('--header') + 1] ?? '';
  const tokenVar = /^Authorization: Bearer \$\{([A-Z_][A-Z0-9_]*)\}$/.exec(header)?.[1];
  if (!tokenVar) throw new Error('README.md\'s claude mcp add line has no `Authorization: Bearer ${VAR}` header');
  return { argv: words.slice(1), url: README_URL, name: words[words.indexOf(README_URL) - 1], tokenVar };
}

/** The variable the README's header names: every client step passes the token in it. */
export const TOKEN_VAR = readmeAddCommand().tokenVar;

export function claudeBin(qualifyDir) {
  return path.join(qualifyDir, 'node_modules', '.bin', 'claude');
}

/** A minimal environment: nothing from the caller's shell (keys, proxies, config) leaks in. */
export function claudeEnv(home, token) {
  return {
    PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1',
    [TOKEN_VAR]: token,
  };
}

export async function version(bin, home) {
  const r = await run(bin, ['--version'], { env: claudeEnv(home, ''), cwd: home, timeoutMs: 15_000 });
  const m = /^(\S+) \(Claude Code\)/m.exec(r.stdout);
  if (!m) throw new Error(`claude --version printed no version (exit ${r.code})`);
  return m[1];
}

/**
 * The README's `claude mcp add` line (its server name replaced by NAME, its URL by URL) in a fresh
 * project folder, then `claude mcp list`. Its exit code is 0 even when the server fails, so the
 * verdict is the status printed on NAME's line.
 */
export async function addAndList({ bin, home, token, name, url }) {
  const project = path.join(home, `project-${name}`);
  fs.mkdirSync(project, { recursive: true });
  const env = claudeEnv(home, token);
  const documented = readmeAddCommand();
  const argv = documented.argv.map((w) => (w === documented.url ? url : w === documented.name ? name : w));
  const add = await run(bin, argv, { env, cwd: project, timeoutMs: 20_000 });
  if (add.code !== 0 || !/Added HTTP MCP server/.test(add.stdout)) {
    throw new Error(`claude ${argv.slice(0, 4).join(' ')} … failed (exit ${add.code}${add.timedOut ? ', timed out' : ''})`);
  }
  // The header must be stored as the literal ${VAR} and expanded only when connecting.
  const stored = fs.readFileSync(path.join(home, '.claude.json'), 'utf8');
  const storedLiteral = stored.includes(`\${${TOKEN_VAR}}`) && !stored.includes(token);
  const list = await run(bin, ['mcp', 'list'], { env, cwd: project, timeoutMs: 30_000 });
  const line = list.stdout.split(/\r?\n/).find((l) => l.startsWith(`${name}: `)) ?? '';
  const status = line.includes('✔ Connected') ? '✔ Connected' : (line.split(' - ').slice(1).join(' - ').trim() || `no status line (exit ${list.code}${list.timedOut ? ', timed out' : ''})`);
  return { project, env, storedLiteral, status, connected: status === '✔ Connected', listMs: Math.round(list.ms) };
}

/**
 * `claude -p` with stream-json prints its `system/init` event (connected MCP
 * servers and their tool names) before it stops at "Not logged in"; no model
 * is reached. Returns the tool names Claude Code registered for NAME.
 */
export async function initToolNames({ bin, project, env, name }) {
  const r = await run(bin, ['-p', 'qualify', '--output-format', 'stream-json', '--verbose'], { env, cwd: project, timeoutMs: 30_000 });
  for (const line of r.stdout.split(/\r?\n/)) {
    let ev;
    try { ev = JSON.parse(line); } catch { continue; }
    if (ev.type === 'system' && ev.subtype === 'init') {
      const server = (ev.mcp_servers ?? []).find((s) => s.name === name);
      const prefix = `mcp__${name}__`;
      return { status: server?.status ?? 'absent', tools: (ev.tools ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length)) };
    }
  }
  throw new Error(`claude -p printed no init event (exit ${r.code}${r.timedOut ? ', timed out' : ''})`);
}

/**
 * One MCP tool call by Claude Code without a model: `claude -p` against a scripted Messages API
 * stand-in (./scripted-model.mjs) that asks for TOOL once. Only that tool is allowed. Returns the
 * tool result Claude Code received: its text and whether it was an error.
 */
export async function callToolScripted({ bin, project, env, name, tool, args }) {
  const { startScriptedModel } = await import('./scripted-model.mjs');
  const qualified = `mcp__${name}__${tool}`;
  const model = await startScriptedModel({ tool: qualified, args });
  try {
    const r = await run(bin, ['-p', 'qualify', '--allowedTools', qualified, '--output-format', 'stream-json', '--verbose'], {
      env: { ...env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-ant-scripted' }, cwd: project, timeoutMs: 60_000,
    });
    for (const line of r.stdout.split(/\r?\n/)) {
      let ev;
      try { ev = JSON.parse(line); } catch { continue; }
      const result = ev.type === 'user' && Array.isArray(ev.message?.content) ? ev.message.content.find((c) => c.type === 'tool_result') : undefined;
      if (result) {
        const text = typeof result.content === 'string' ? result.content : (result.content ?? []).map((c) => c.text ?? '').join('');
        return { isError: result.is_error === true, text };
      }
    }
    throw new Error(`claude -p reported no tool result (exit ${r.code}${r.timedOut ? ', timed out' : ''}, ${model.requests()} model requests)`);
  } finally {
    await model.close();
  }
}
