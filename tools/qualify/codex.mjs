// Driver for Codex CLI 0.171.0 through `codex app-server` (JSON-RPC 2.0, one
// object per line on stdio). No login and no model: MCP status and direct tool
// calls only. `codex exec` is never used (it retries the model API forever).
import fs from 'node:fs';
import path from 'node:path';
import { start, withTimeout, sleep } from './lib.mjs';

const WAIT_MS = 20_000;

export function codexBin(qualifyDir) {
  return path.join(qualifyDir, 'node_modules', '.bin', 'codex');
}

function tomlString(s) { return JSON.stringify(s); }

/** Writes an isolated CODEX_HOME whose only MCP server is NAME at URL, with a bearer token taken from an env var. */
export function writeConfig(codexHome, name, url, tokenVar) {
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, 'config.toml'),
    `[mcp_servers.${name}]\nurl = ${tomlString(url)}\nbearer_token_env_var = ${tomlString(tokenVar)}\n`);
}

export class AppServer {
  constructor({ bin, codexHome, env, cwd }) {
    this.proc = start(bin, ['app-server'], { env: { ...env, CODEX_HOME: codexHome }, cwd, stdin: 'pipe' });
    this.nextId = 1;
    this.pending = new Map();
    this.notifications = [];
    let buf = '';
    this.proc.child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i); buf = buf.slice(i + 1);
        let msg;
        try { msg = JSON.parse(line); } catch { continue; }
        if (msg.id !== undefined && this.pending.has(msg.id) && !msg.method) {
          const p = this.pending.get(msg.id); this.pending.delete(msg.id);
          if (msg.error) p.reject(Object.assign(new Error(`${msg.error.code}: ${msg.error.message}`), { rpc: msg.error }));
          else p.resolve(msg.result);
        } else if (msg.method) {
          this.notifications.push(msg.method);
        }
      }
    });
    this.proc.exited.then(() => {
      for (const p of this.pending.values()) p.reject(new Error('codex app-server exited'));
      this.pending.clear();
    });
  }
  send(obj) { this.proc.child.stdin.write(JSON.stringify(obj) + '\n'); }
  request(method, params, timeoutMs = WAIT_MS) {
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.send({ id, method, params });
    return withTimeout(p, timeoutMs, method);
  }
  notify(method, params) { this.send(params === undefined ? { method } : { method, params }); }
  async stop() { try { this.proc.child.stdin.end(); } catch { /* closed */ } return this.proc.stop(1500); }
}

export async function initialize(app) {
  const r = await app.request('initialize', { clientInfo: { name: 'pulse-qualify', version: '0.0.0' }, capabilities: { experimentalApi: true } });
  app.notify('initialized');
  const m = /\/(\d+\.\d+\.\d+)/.exec(r?.userAgent ?? '');
  return { codexVersion: m ? m[1] : null };
}

/** Polls mcpServerStatus/list (bounded) until NAME reports tools or an error. */
export async function serverStatus(app, name, timeoutMs = WAIT_MS) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline) {
    const r = await app.request('mcpServerStatus/list', {});
    last = (r?.data ?? []).find((s) => s.name === name) ?? null;
    if (last && (last.toolsError || Object.keys(last.tools ?? {}).length)) return last;
    await sleep(200);
  }
  return last;
}

export async function startThread(app, cwd) {
  const r = await app.request('thread/start', { cwd, ephemeral: true });
  const id = r?.thread?.id;
  if (!id) throw new Error('thread/start returned no thread id');
  return id;
}

export function callTool(app, threadId, server, tool, args) {
  return app.request('mcpServer/tool/call', { threadId, server, tool, arguments: args });
}
