#!/usr/bin/env node
// `npm run soak:rate-limit` (not a test): SOAK_SECONDS (600) of load against the Node host with
// `rateLimit` (rate-limit-server.mjs, a child process, so that its memory is the server's alone):
//   caller A   twice its tool-call budget (2 L per 10 s: allowed until it passes L in the window,
//              then a minute in the penalty box, then allowed again),
//   caller B   half its budget (L / 2 per 10 s): must never be refused,
//   noise      SOAK_NOISE_RPS (200) calls per second, each from an address never seen before, so
//              that the store fills up and must forget within `maxEntries` (SOAK_MAX_ENTRIES, 2000)
//              and `maxBytes` (SOAK_MAX_BYTES, 1 MiB),
// with L = SOAK_LIMIT (100). Every 10 s: the statuses of each sender, the server's RSS and heap
// (after a full collection) and the store's size. Exits non-zero when B was ever refused, anything
// answered other than 200 or 429 or failed, A was never refused, the store ever held more than its
// bounds (checked by the server after every request), or the heap grew by more than 20% between
// minute 2 (or the first fifth of a shorter run) and the end.
import { fork } from 'node:child_process';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const int = (name, fallback, min) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < min) throw new Error(`soak: ${name} must be an integer of at least ${min}, not ${process.env[name]}`);
  return v;
};
const SECONDS = int('SOAK_SECONDS', 600, 20);
const LIMIT = int('SOAK_LIMIT', 100, 2);
const NOISE_RPS = int('SOAK_NOISE_RPS', 200, 0);
const MAX_ENTRIES = int('SOAK_MAX_ENTRIES', 2000, 1);
const MAX_BYTES = int('SOAK_MAX_BYTES', 1 << 20, 65536);
const WINDOW_S = 10;
const SAMPLE_S = 10;
const HEAP_GROWTH = 0.2;
const RATE_LIMIT = {
  // Generous per address: only the tool-call budget should ever refuse.
  requests: { limit: 1_000_000, window: 60 },
  toolCalls: { limit: LIMIT, window: WINDOW_S, penaltyMinutes: 1 },
  maxEntries: MAX_ENTRIES,
  maxBytes: MAX_BYTES,
};

const PROTOCOL = '2026-07-28';
const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'echo_js',
    arguments: { text: 'hello' },
    _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'soak', version: '1.0.0' } },
  },
});
const HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'content-length': Buffer.byteLength(BODY),
  'mcp-protocol-version': PROTOCOL,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo_js',
};

/** A fresh address for every noise request: IPv4 in 10/8, every other one an IPv6 /64 of its own. */
let noiseN = 0;
function noiseAddress() {
  const n = ++noiseN;
  return n % 2 === 0 ? `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` : `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`;
}

const server = fork(join(HERE, 'rate-limit-server.mjs'), [JSON.stringify(RATE_LIMIT)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const stopServer = () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
};
process.on('exit', stopServer);
const { port } = await new Promise((ready, fail) => {
  const timer = setTimeout(() => fail(new Error('soak: the server did not start within 10 s')), 10_000);
  server.once('message', (m) => (clearTimeout(timer), ready(m)));
  server.once('exit', (code) => fail(new Error(`soak: the server exited with ${code}`)));
});
let pendingSample;
server.on('message', (m) => pendingSample?.(m));
const sample = () =>
  new Promise((got, fail) => {
    const timer = setTimeout(() => fail(new Error('soak: the server did not answer a sample within 10 s')), 10_000);
    pendingSample = (m) => (clearTimeout(timer), (pendingSample = undefined), got(m));
    server.send('sample');
  });

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
/** Per sender: statuses since the last sample and in total. */
const senders = {
  A: { address: () => '192.0.2.1', rps: (2 * LIMIT) / WINDOW_S },
  B: { address: () => '192.0.2.2', rps: LIMIT / 2 / WINDOW_S },
  noise: { address: noiseAddress, rps: NOISE_RPS },
};
for (const s of Object.values(senders)) Object.assign(s, { sent: 0, now: {}, total: {} });
let inFlight = 0;
/** A's admitted calls by minute of the run. */
const aPerMinute = Array.from({ length: Math.ceil(SECONDS / 60) }, () => 0);

function call(s, name, started) {
  inFlight++;
  const tally = (status) => {
    inFlight--;
    s.now[status] = (s.now[status] ?? 0) + 1;
    s.total[status] = (s.total[status] ?? 0) + 1;
    if (name === 'A' && status === 200) aPerMinute[Math.min(aPerMinute.length - 1, Math.floor((performance.now() - started) / 60_000))]++;
  };
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', agent, headers: { ...HEADERS, 'x-soak-client': s.address() } }, (res) => {
    res.resume();
    res.on('end', () => tally(res.statusCode));
    res.on('error', () => tally('error'));
  });
  req.on('error', () => tally('error'));
  req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
  req.end(BODY);
}

const started = performance.now();
const end = started + SECONDS * 1000;
// Each sender keeps to its rate by the clock: the calls due by now that it has not sent yet.
const pump = setInterval(() => {
  const elapsed = (Math.min(performance.now(), end) - started) / 1000;
  for (const [name, s] of Object.entries(senders)) {
    const due = Math.floor(elapsed * s.rps);
    for (; s.sent < due; s.sent++) call(s, name, started);
  }
}, 5);

const rows = [];
const mib = (b) => (b / 1048576).toFixed(1);
const take = (s, status) => s.now[status] ?? 0;
const others = (s) => Object.entries(s.now).filter(([k]) => k !== '200' && k !== '429').reduce((n, [, v]) => n + v, 0);
process.stdout.write(
  `soak: ${SECONDS} s, tool-call budget ${LIMIT} per ${WINDOW_S} s (penalty 1 min): A ${senders.A.rps}/s, B ${senders.B.rps}/s, noise ${NOISE_RPS}/s from new addresses; store bounds ${MAX_ENTRIES} entries, ${MAX_BYTES} bytes; server pid ${server.pid}\n\n` +
    '| t s | A 200 | A 429 | B 200 | B 429 | noise 200 | other/failed | RSS MiB | heap MiB | store entries | store bytes | largest entries / bytes |\n' +
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n',
);
for (let t = SAMPLE_S; t <= SECONDS; t += SAMPLE_S) {
  await new Promise((r) => setTimeout(r, Math.max(0, started + t * 1000 - performance.now())));
  const m = await sample();
  const { A, B, noise } = senders;
  const row = {
    t,
    a200: take(A, 200), a429: take(A, 429), b200: take(B, 200), b429: take(B, 429), noise200: take(noise, 200),
    other: others(A) + others(B) + others(noise) + take(noise, 429),
    rss: m.rss, heap: m.heapUsed, store: m.store, largest: m.largest,
  };
  rows.push(row);
  for (const s of Object.values(senders)) s.now = {};
  process.stdout.write(
    `| ${t} | ${row.a200} | ${row.a429} | ${row.b200} | ${row.b429} | ${row.noise200} | ${row.other} | ${mib(row.rss)} | ${mib(row.heap)} | ${row.store.entries} | ${row.store.bytes} | ${row.largest.entries} / ${row.largest.bytes} |\n`,
  );
}
clearInterval(pump);
// The calls still under way finish (each is bounded by its timeout) before the totals are read.
for (let waited = 0; inFlight > 0 && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
agent.destroy();
server.disconnect();

const total = (s, status) => s.total[status] ?? 0;
const { A, B, noise } = senders;
const failed = Object.values(senders).reduce((n, s) => n + Object.entries(s.total).filter(([k]) => k !== '200' && k !== '429').reduce((x, [, v]) => x + v, 0), 0) + total(noise, 429);
const largest = rows.at(-1).largest;
const from = rows.find((r) => r.t >= Math.min(120, SECONDS / 5)) ?? rows[0];
const last = rows.at(-1);
const growth = last.heap / from.heap - 1;
const failures = [
  ...(total(B, 429) > 0 ? [`B was refused ${total(B, 429)} times`] : []),
  ...(failed > 0 ? [`${failed} calls answered other than 200 or 429 (or noise refused) or failed`] : []),
  ...(total(A, 429) === 0 ? ['A was never refused'] : []),
  ...(largest.entries > MAX_ENTRIES ? [`the store held ${largest.entries} entries (bound ${MAX_ENTRIES})`] : []),
  ...(largest.bytes > MAX_BYTES ? [`the store held ${largest.bytes} bytes (bound ${MAX_BYTES})`] : []),
  ...(growth > HEAP_GROWTH ? [`the heap grew ${(growth * 100).toFixed(1)}% from ${from.t} s to ${last.t} s`] : []),
];
process.stdout.write(
  `\nA's admitted calls by minute: ${aPerMinute.join(', ')}\n` +
    `soak ${failures.length === 0 ? 'passed' : 'FAILED'}: A ${total(A, 200)} admitted / ${total(A, 429)} refused, B ${total(B, 200)} admitted / ${total(B, 429)} refused, ` +
    `noise ${total(noise, 200)} admitted, ${failed} other or failed; store at most ${largest.entries} entries (bound ${MAX_ENTRIES}), ${largest.bytes} bytes (bound ${MAX_BYTES}); ` +
    `heap ${mib(from.heap)} MiB at ${from.t} s, ${mib(last.heap)} MiB at ${last.t} s (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%), RSS ${mib(Math.min(...rows.map((r) => r.rss)))}–${mib(Math.max(...rows.map((r) => r.rss)))} MiB` +
    `${failures.length === 0 ? '' : `: ${failures.join('; ')}`}\n`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
