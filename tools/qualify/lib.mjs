// Shared plumbing for the qualification drivers: child processes in their own
// process groups (stopped by PID, also on exit and signals), bounded waits,
// free ports, and the recording reverse proxy that sits in front of each server.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

// The scripts that start a local server wait for it the same way.
export { waitForPort } from '../../scripts/lib/net.mjs';

const children = new Map(); // pid -> ChildProcess

/** One line, bounded, never a stack; the SDK embeds the server's JSON error body in its message. */
export function errorLine(e) {
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return msg.replace(/\s+/g, ' ').slice(0, 400);
}

function killGroup(pid, signal) {
  try { process.kill(-pid, signal); } catch { try { process.kill(pid, signal); } catch { /* already gone */ } }
}

export function killAllChildren() {
  for (const pid of children.keys()) killGroup(pid, 'SIGKILL');
  children.clear();
}

let hooked = false;
function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllChildren);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => { killAllChildren(); process.exit(130); });
  }
}

/**
 * Spawns `cmd args` detached (its own process group) with stdout/stderr
 * captured up to `maxBytes` each. Returns the child plus helpers.
 */
export function start(cmd, args, { env, cwd, maxBytes = 4 << 20, stdin = 'ignore' } = {}) {
  hookExit();
  const child = spawn(cmd, args, { env, cwd, detached: true, stdio: [stdin, 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  for (const k of ['stdout', 'stderr']) {
    child[k].setEncoding('utf8');
    child[k].on('data', (d) => { if (out[k].length < maxBytes) out[k] += d; });
  }
  const exited = new Promise((resolve) => {
    child.on('error', (e) => resolve({ code: null, signal: null, error: e.code || 'spawn-error' }));
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  exited.then(() => children.delete(child.pid));
  if (child.pid) children.set(child.pid, child);
  return {
    child, out, exited,
    /** Stops the whole process group: SIGTERM, then SIGKILL after `graceMs`. */
    async stop(graceMs = 2000) {
      if (!child.pid || !children.has(child.pid)) return exited;
      killGroup(child.pid, 'SIGTERM');
      const r = await withTimeout(exited, graceMs).catch(() => null);
      if (r) return r;
      killGroup(child.pid, 'SIGKILL');
      return withTimeout(exited, graceMs).catch(() => ({ code: null, signal: 'SIGKILL' }));
    },
  };
}

/** Runs a command to completion with a hard deadline; the group is killed on timeout. */
export async function run(cmd, args, opts = {}) {
  const { timeoutMs = 30_000 } = opts;
  const p = start(cmd, args, opts);
  const t0 = performance.now();
  let timedOut = false;
  const r = await withTimeout(p.exited, timeoutMs).catch(async () => { timedOut = true; return p.stop(500); });
  return { ...r, timedOut, stdout: p.out.stdout, stderr: p.out.stderr, ms: performance.now() - t0 };
}

export function withTimeout(promise, ms, what = 'operation') {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const PARSE_CAP = 256 * 1024;

function rpcSummary(text, contentType) {
  // Returns {method,name,protocolVersion,id} of a request, or {errorCode,errorMessage,resultProtocolVersion,isError} of a reply.
  const bodies = [];
  if (/text\/event-stream/i.test(contentType || '')) {
    for (const line of text.split(/\r?\n/)) if (line.startsWith('data:')) bodies.push(line.slice(5).trim());
  } else if (text) bodies.push(text);
  const out = [];
  for (const b of bodies) { try { out.push(JSON.parse(b)); } catch { /* not JSON */ } }
  return out;
}

/**
 * A reverse proxy on 127.0.0.1 in front of `upstreamPort`. It streams both
 * directions unchanged and records, per request, only what the report needs:
 * JSON-RPC method/name, revision header, status, sizes, error codes and
 * whether `authorization` equalled `Bearer <expectedToken>` (never the value).
 */
export async function startRecordingProxy(upstreamPort, expectedToken) {
  const records = [];
  let step = null;
  const expectedAuth = `Bearer ${expectedToken}`;
  const server = http.createServer((req, res) => {
    const rec = {
      step, httpMethod: req.method, path: req.url.split('?')[0], status: 0, requestBytes: 0, responseBytes: 0,
      auth: req.headers.authorization === undefined ? 'absent' : req.headers.authorization === expectedAuth ? 'expected' : 'other',
      protocolHeader: req.headers['mcp-protocol-version'] ?? null,
      mcpMethodHeader: req.headers['mcp-method'] ?? null,
      userAgent: String(req.headers['user-agent'] ?? '').split(' ')[0].slice(0, 60),
    };
    records.push(rec);
    const reqChunks = [];
    req.on('data', (c) => { rec.requestBytes += c.length; if (rec.requestBytes <= PARSE_CAP) reqChunks.push(c); });
    req.on('end', () => {
      for (const m of rpcSummary(Buffer.concat(reqChunks).toString('utf8'), 'application/json')) {
        rec.rpcMethod = m.method ?? null;
        if (m.method === 'tools/call') rec.toolName = m.params?.name ?? null;
        if (m.method === 'initialize') rec.initializeVersion = m.params?.protocolVersion ?? null;
        const metaVersion = m.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
        if (metaVersion) rec.metaVersion = metaVersion;
      }
    });
    const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}` };
    const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent: false }, (ur) => {
      rec.status = ur.statusCode;
      rec.contentType = String(ur.headers['content-type'] ?? '').split(';')[0];
      const out = { ...ur.headers };
      for (const h of ['connection', 'keep-alive', 'transfer-encoding']) delete out[h];
      res.writeHead(ur.statusCode, out);
      const respChunks = [];
      let parsed = 0;
      ur.on('data', (c) => {
        rec.responseBytes += c.length;
        if (parsed < PARSE_CAP) { respChunks.push(c); parsed += c.length; }
        res.write(c);
      });
      const finish = () => {
        for (const m of rpcSummary(Buffer.concat(respChunks).toString('utf8'), rec.contentType)) {
          if (m.error) { rec.errorCode = m.error.code; rec.errorMessage = String(m.error.message ?? '').slice(0, 200); }
          if (m.result?.protocolVersion) rec.resultProtocolVersion = m.result.protocolVersion;
          if (m.result?.supportedVersions) rec.supportedVersions = m.result.supportedVersions;
          if (m.result && m.result.isError === true) rec.isError = true;
          if (m.result && 'resultType' in m.result) rec.resultType = m.result.resultType;
        }
        res.end();
      };
      ur.on('end', finish);
      ur.on('error', finish);
    });
    // A client that leaves early (a CLI exiting with a listen stream open) is not an upstream failure.
    let clientLeft = false;
    res.on('close', () => { if (!res.writableFinished) { clientLeft = true; rec.clientClosedEarly = true; up.destroy(); } });
    up.on('error', () => {
      if (clientLeft) return;
      rec.status = rec.status || 502;
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  return {
    port: server.address().port,
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    records,
    setStep(s) { step = s; },
    forStep(s) { return records.filter((r) => r.step === s); },
    close() { server.closeAllConnections?.(); return new Promise((r) => server.close(() => r())); },
  };
}

/** Sums the wire records of one step into the report's size/revision fields. */
export function wireSummary(recs) {
  const revisions = new Set();
  for (const r of recs) {
    if (r.protocolHeader) revisions.add(r.protocolHeader);
    if (r.metaVersion) revisions.add(r.metaVersion);
    if (r.initializeVersion) revisions.add(r.initializeVersion);
  }
  return {
    requests: recs.length,
    requestBytes: recs.reduce((a, r) => a + r.requestBytes, 0),
    responseBytes: recs.reduce((a, r) => a + r.responseBytes, 0),
    largestResponseBytes: recs.reduce((a, r) => Math.max(a, r.responseBytes), 0),
    revisions: [...revisions].sort(),
    methods: [...new Set(recs.map((r) => r.rpcMethod ?? r.httpMethod))],
    errors: recs.filter((r) => r.errorCode !== undefined || r.status >= 400)
      .map((r) => ({ method: r.rpcMethod ?? r.httpMethod, status: r.status, code: r.errorCode ?? null, message: r.errorMessage ?? null })),
    auth: recs.length ? (recs.every((r) => r.auth === 'expected') ? 'expected' : recs.some((r) => r.auth === 'expected') ? 'partly-expected' : recs[0].auth) : 'no-requests',
  };
}
