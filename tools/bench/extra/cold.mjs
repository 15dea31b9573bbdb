// Cold start over a real socket: from spawning a server process to the complete answer of its first
// tools/call (a fresh connection from this process, whose HTTP client is warm), median of RUNS fresh
// processes per case, the cases alternating run by run. Cases: the bare node:http server, the Pulse
// Node host (`/node`, the echo tool catalog-backed: it loads compiled artifacts, as a deployed host
// does, and its first call makes the first outbound call to a warm upstream), the static binding's
// Node listener (JavaScript tool) and the official SDK server, each on Node 20 (this process's),
// 22 and 24: the same pinned npm `node` packages the test suite runs (PULSE_NODE22, PULSE_NODE24).
// The server CPU column is the process's CPU time (all threads) up to that answer.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 7;
export const GROUP = 'cold start, spawn to first tools/call answer over a socket';
export const BARE = 'bare node:http + JSON.parse';
export const NODE_HOST = 'Pulse Node host, catalog-backed tool';
export const LISTENER = 'Pulse static binding, Node listener, JavaScript tool';
const SDK = 'official SDK server (@modelcontextprotocol/server)';

/** The Node binaries: this one, then the lines the test suite runs, from package.json's scripts. */
function nodes(root) {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  const out = [process.execPath];
  for (const line of ['22', '24']) {
    const spec = process.env[`PULSE_NODE${line}`] ?? /node@[\d.]+/.exec(scripts[`test:node${line}`] ?? '')?.[0];
    if (!spec) throw new Error(`bench: cold: no node@${line} spec in package.json's test:node${line} (or PULSE_NODE${line})`);
    const r = spawnSync('npx', ['-y', '-p', spec, 'node', '-p', 'process.execPath'], { cwd: root, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) throw new Error(`bench: cold: npx -p ${spec} failed: ${(r.stderr || '').trim().split('\n').at(-1)}`);
    out.push(r.stdout.trim());
  }
  return out;
}

function post(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * CPU time all threads of a live process have used, in µs (Linux /proc schedstat, nanoseconds);
 * steadier than the wall time on a loaded machine, where the start waits for a core.
 */
function cpuUs(pid) {
  try {
    let ns = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1000;
  } catch {
    return undefined;
  }
}

/** One fresh server process: ms from spawn to its first answer and its CPU µs by then; stopped by its PID. */
async function once(node, root, { script, args = [], env = {} }, call) {
  const t0 = performance.now();
  const child = spawn(node, [join(root, script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const port = await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`bench: cold: ${script} exited with ${code}`)));
      child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    });
    const { status, text } = await post(port, call.headers, call.body);
    const ms = performance.now() - t0;
    const cpu = cpuUs(child.pid);
    if (status !== 200 || !text.includes('"text":"hello"')) throw new Error(`bench: cold: ${script} ${args.join(' ')} answered ${status}: ${text.slice(0, 200)}`);
    return { ms, cpu };
  } finally {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    await exited;
  }
}

export async function rows({ root, startServer, meta, headers }) {
  const call = (name) => ({
    headers: { ...headers, 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { text: 'hello' }, _meta: meta } }),
  });
  const bins = nodes(root);
  const dir = mkdtempSync(join(tmpdir(), 'pulse-bench-cold-'));
  const artifacts = join(dir, 'artifacts.json');
  const built = spawnSync(process.execPath, [join(root, 'tools/bench/server-pulse.mjs'), 'artifacts'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`bench: cold: compiling the artifacts failed: ${built.stderr.slice(-400)}`);
  writeFileSync(artifacts, built.stdout);
  const upstream = await startServer(join(root, 'tools/bench/server-upstream.mjs'));
  const cases = [
    { name: BARE, script: 'tools/bench/server-bare.mjs', args: ['tools'], call: call('echo') },
    { name: NODE_HOST, script: 'tools/bench/server-pulse.mjs', args: ['catalog', String(upstream.port)], env: { BENCH_CATALOG_ARTIFACTS: artifacts }, call: call('echo'), baseline: BARE },
    { name: LISTENER, script: 'tools/bench/server-pulse.mjs', args: ['binding'], call: call('echo_js'), baseline: BARE },
    { name: SDK, script: 'tools/bench/server-sdk.mjs', call: call('echo'), baseline: BARE },
  ];
  const out = [];
  try {
    // This process's HTTP client warm before the first measured answer.
    await post(upstream.port, { 'content-type': 'application/json' }, '{"id":0,"params":{"text":"warm"}}');
    for (const node of bins) {
      const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
      const times = cases.map(() => []);
      for (let run = 0; run < RUNS; run++) for (const [i, c] of cases.entries()) times[i].push(await once(node, root, c, c.call));
      for (const [i, { name, baseline }] of cases.entries()) {
        const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
        const cpus = times[i].map((t) => t.cpu).filter((x) => x !== undefined);
        out.push({
          group: `${GROUP}, Node ${version}`, name, value: median(times[i].map((t) => t.ms)), unit: 'ms', baseline,
          cpuUsPerReq: cpus.length ? median(cpus) : undefined, rounds: times[i].map((t) => Math.round(t.ms * 10) / 10),
        });
      }
    }
  } finally {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
