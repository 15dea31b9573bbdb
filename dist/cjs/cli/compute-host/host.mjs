// src/cli/compute-host/host.mjs
import { createServer, request as httpRequest } from "node:http";
import { Worker } from "node:worker_threads";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { S, SEND_ERR, KV_ERR } from "./status.mjs";
import { loadHostConfig, workerView } from "./config.mjs";
import { checkImports } from "./compute-module.mjs";
import { ErlStore, ErlInvalid } from "./erl.mjs";
var CAP = 1 << 20;
var HIGH_WATER = 1 << 20;
var HOP_BY_HOP = /* @__PURE__ */ new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "proxy-connection", "te", "trailer"]);
var enc = new TextEncoder();
var HostError = class extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
};
var Events = class {
  constructor() {
    this.waiters = /* @__PURE__ */ new Set();
  }
  poke() {
    for (const w of [...this.waiters]) w();
  }
  /** Resolves true once `cond()` holds, false after `ms` (Infinity waits until poked true). */
  until(cond, ms) {
    if (cond()) return Promise.resolve(true);
    return new Promise((done) => {
      let timer = null;
      const w = () => {
        if (!cond()) return;
        this.waiters.delete(w);
        if (timer) clearTimeout(timer);
        done(true);
      };
      this.waiters.add(w);
      if (Number.isFinite(ms)) {
        timer = setTimeout(() => {
          this.waiters.delete(w);
          done(cond());
        }, ms);
      }
    });
  }
};
var Inbound = class {
  constructor(stream, events) {
    this.stream = stream;
    this.events = events;
    this.chunks = [];
    this.queued = 0;
    this.ended = false;
    this.failed = false;
    stream.on("data", (c) => {
      this.chunks.push(c);
      this.queued += c.length;
      if (this.queued > HIGH_WATER) stream.pause();
      events.poke();
    });
    stream.on("end", () => {
      this.ended = true;
      events.poke();
    });
    stream.on("error", () => {
      this.failed = true;
      events.poke();
    });
    stream.on("close", () => {
      if (!this.ended) this.failed = true;
      events.poke();
    });
  }
  ready() {
    return this.chunks.length > 0 || this.ended || this.failed;
  }
  take(max) {
    const out = [];
    let n = 0;
    while (this.chunks.length && n < max) {
      const c = this.chunks[0];
      const want = max - n;
      if (c.length <= want) {
        out.push(this.chunks.shift());
        n += c.length;
      } else {
        out.push(c.subarray(0, want));
        this.chunks[0] = c.subarray(want);
        n += want;
      }
    }
    this.queued -= n;
    if (this.queued <= HIGH_WATER / 2 && this.stream.isPaused()) this.stream.resume();
    const data = out.length === 1 ? out[0] : Buffer.concat(out);
    if (!data.length && this.failed && !this.ended) return { meta: { error: true }, data };
    return { meta: { eof: this.ended && !this.chunks.length }, data };
  }
};
var Exchange = class {
  constructor(host, req, res) {
    this.host = host;
    this.req = req;
    this.res = res;
    this.events = new Events();
    this.down = new Inbound(req, this.events);
    this.backends = /* @__PURE__ */ new Map();
    this.responded = false;
    this.streaming = false;
    this.finished = false;
    this.started = performance.now();
  }
  itemReady(d) {
    if (d.kind === "down") return this.down.ready();
    const b = this.backends.get(d.pid);
    if (!b) return true;
    if (d.kind === "pending") return b.result !== null;
    return b.body ? b.body.ready() : true;
  }
  startBackend(m) {
    const be = this.host.cfg.backends.get(m.backend);
    const b = { result: null, body: null, req: null };
    this.backends.set(m.pid, b);
    const fail = (detail) => {
      if (b.result) {
        if (b.body) this.events.poke();
        return;
      }
      b.result = { done: true, ok: false, status: S.ERROR, detail };
      this.events.poke();
    };
    let target;
    try {
      target = new URL(m.uri);
    } catch {
      return fail(SEND_ERR.INTERNAL_ERROR);
    }
    const headers = {};
    for (const [n, v] of m.headers) {
      if (HOP_BY_HOP.has(n)) continue;
      (headers[n] ??= []).push(v);
    }
    headers.host = be.overrideHost || (headers.host ? headers.host[0] : be.authority);
    if (m.body.length || !["GET", "HEAD", "OPTIONS", "DELETE"].includes(m.method)) headers["content-length"] = String(m.body.length);
    let req;
    try {
      req = httpRequest({ host: be.host, port: be.port, method: m.method, path: be.pathPrefix + target.pathname + target.search, headers, agent: false });
    } catch {
      return fail(SEND_ERR.HTTP_PROTOCOL_ERROR);
    }
    b.req = req;
    req.setTimeout(this.host.backendTimeoutMs, () => {
      fail(SEND_ERR.HTTP_RESPONSE_TIMEOUT);
      req.destroy();
    });
    req.on("error", (e) => fail(e && e.code === "ECONNREFUSED" ? SEND_ERR.CONNECTION_REFUSED : SEND_ERR.CONNECTION_TERMINATED));
    req.on("response", (res) => {
      const list = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) list.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
      b.body = new Inbound(res, this.events);
      b.result = { done: true, ok: true, status: res.statusCode, headers: list, remote: { ip: res.socket.remoteAddress, port: res.socket.remotePort } };
      this.events.poke();
    });
    req.end(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.length));
  }
  remainingMs() {
    return Math.max(0, this.host.requestTimeoutMs - (performance.now() - this.started));
  }
  async rpc(op, a) {
    switch (op) {
      case "down-read":
        await this.events.until(() => this.down.ready(), this.remainingMs());
        return this.down.take(Math.min(a.max, CAP - 256));
      case "bbody-read": {
        const b = this.backends.get(a.pid);
        if (!b || !b.body) return { meta: { error: true } };
        await this.events.until(() => b.body.ready(), this.remainingMs());
        return b.body.take(Math.min(a.max, CAP - 256));
      }
      case "pending-wait": {
        const b = this.backends.get(a.pid);
        await this.events.until(() => b.result !== null, this.remainingMs());
        return { meta: b.result || { done: true, ok: false, status: S.ERROR, detail: SEND_ERR.HTTP_RESPONSE_TIMEOUT } };
      }
      case "pending-poll": {
        const b = this.backends.get(a.pid);
        return { meta: b.result || { done: false } };
      }
      case "ready":
        return { meta: { ready: a.items.some((d) => this.itemReady(d)) } };
      case "select": {
        const cond = () => a.items.some((d) => this.itemReady(d));
        const limit = a.timeoutMs === 0 ? this.remainingMs() : Math.min(a.timeoutMs, this.remainingMs());
        await this.events.until(cond, limit);
        return { meta: { index: a.items.findIndex((d) => this.itemReady(d)) } };
      }
      case "kv-open":
        return { meta: { ok: this.host.kv.has(a.name) } };
      case "kv-lookup": {
        const e = this.host.kv.get(a.name).get(a.key);
        if (!e) return { meta: { kvError: KV_ERR.NOT_FOUND } };
        return { meta: { kvError: KV_ERR.OK, metadata: e.metadata }, data: e.data };
      }
      case "kv-insert":
        this.host.kv.get(a.name).set(a.key, { data: Buffer.from(a.data), metadata: "" });
        return { meta: { kvError: KV_ERR.OK } };
      case "kv-delete":
        return { meta: { kvError: this.host.kv.get(a.name).delete(a.key) ? KV_ERR.OK : KV_ERR.NOT_FOUND } };
      case "erl":
        try {
          return { meta: { value: this.host.erl.hostcall(a.call, a.args) ?? null } };
        } catch (e) {
          if (e instanceof ErlInvalid) return { meta: { inval: true } };
          throw e;
        }
      default:
        return { meta: { error: true } };
    }
  }
  respond(m) {
    if (this.responded) return;
    this.responded = true;
    const res = this.res;
    res.statusCode = m.status;
    for (const [n, v] of m.headers) if (!HOP_BY_HOP.has(n)) res.appendHeader(n, v);
    if (!this.down.ended) res.setHeader("connection", "close");
    if (!m.streaming) {
      res.setHeader("content-length", String(m.body.length));
      res.end(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.length));
      this.finished = true;
      return;
    }
    this.streaming = true;
    if (m.body.length) res.write(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.length));
  }
  finish(fallbackStatus) {
    for (const b of this.backends.values()) if (b.req) b.req.destroy();
    if (!this.responded) {
      this.responded = true;
      this.res.statusCode = fallbackStatus;
      this.res.setHeader("content-length", "0");
      if (!this.down.ended) this.res.setHeader("connection", "close");
      this.res.end();
    } else if (!this.finished) {
      this.res.end();
    }
    this.finished = true;
    this.events.poke();
  }
};
var Slot = class {
  constructor(host) {
    this.host = host;
    this.sab = new SharedArrayBuffer(16 + CAP);
    this.ctl = new Int32Array(this.sab, 0, 4);
    this.area = new Uint8Array(this.sab, 16);
    this.ex = null;
    this.timer = null;
    this.spawn();
  }
  spawn() {
    const h = this.host;
    this.worker = new Worker(new URL("./worker.mjs", import.meta.url), {
      workerData: { module: h.module, sab: this.sab, view: h.view, rpcTimeoutMs: h.requestTimeoutMs + 1e3 }
    });
    this.worker.on("message", (m) => this.onMessage(m));
    this.worker.on("error", () => this.crash());
    this.worker.on("exit", () => {
      if (!this.closing) this.crash();
    });
  }
  crash() {
    if (this.closing) return;
    const ex = this.ex;
    this.ex = null;
    if (this.timer) clearTimeout(this.timer);
    if (ex) ex.finish(500);
    this.worker.removeAllListeners();
    this.worker.terminate();
    this.spawn();
    this.host.release(this);
  }
  run(ex) {
    this.ex = ex;
    const req = ex.req;
    const headers = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]]);
    const head = { method: req.method, uri: `http://${this.host.authority}${req.url}`, headers };
    this.timer = setTimeout(() => this.crash(), this.host.requestTimeoutMs);
    const pre = ex.down.ready() && !ex.down.failed ? ex.down.take(CAP) : null;
    const first = pre ? { data: new Uint8Array(pre.data), eof: pre.meta.eof } : null;
    this.worker.postMessage(
      { type: "run", head, first, client: req.socket.remoteAddress, requestId: randomBytes(8).toString("hex"), env: this.host.env },
      first ? [first.data.buffer] : []
    );
  }
  answer(result) {
    const meta = enc.encode(JSON.stringify(result.meta || {}));
    const data = result.data || new Uint8Array(0);
    this.area.set(meta, 0);
    this.area.set(data.subarray(0, CAP - meta.length), meta.length);
    this.ctl[2] = meta.length;
    this.ctl[3] = Math.min(data.length, CAP - meta.length);
    Atomics.store(this.ctl, 0, 1);
    Atomics.notify(this.ctl, 0);
  }
  onMessage(m) {
    const ex = this.ex;
    if (!ex) return;
    switch (m.type) {
      case "rpc":
        ex.rpc(m.op, m.args).then(
          (r) => this.ex === ex && this.answer(r),
          () => this.ex === ex && this.answer({ meta: { error: true } })
        );
        break;
      case "resp-start":
        ex.respond(m);
        break;
      case "resp-chunk":
        if (ex.streaming && !ex.finished) ex.res.write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.length));
        break;
      case "resp-end":
        if (ex.streaming && !ex.finished) {
          ex.finished = true;
          ex.res.end();
        }
        break;
      case "resp-abort":
        if (ex.streaming && !ex.finished) {
          ex.finished = true;
          ex.res.destroy();
        }
        break;
      case "backend-send":
        ex.startBackend(m);
        break;
      case "log":
        process.stdout.write(`${m.endpoint} :: ${m.line}
`);
        break;
      case "instantiated":
        if (!this.host.firstInstantiated) this.host.firstInstantiated = performance.now();
        break;
      case "host-error":
        if (this.host.verbose) process.stderr.write(`host: internal error in ${m.call}
`);
        break;
      case "trap":
        if (this.host.verbose) process.stderr.write(`host: guest trapped (${m.name})
`);
        break;
      case "done":
        clearTimeout(this.timer);
        this.ex = null;
        ex.finish(500);
        this.host.release(this);
        break;
      default:
        break;
    }
  }
  close() {
    this.closing = true;
    clearTimeout(this.timer);
    return this.worker.terminate();
  }
};
async function startHost({ wasm, toml, addr = "127.0.0.1:7676", workers = 2, verbose = 0, requestTimeoutMs = 6e4, backendTimeoutMs = 3e4, maxQueue = 256, clock = Date.now }) {
  const [hostname, portText] = addr.split(/:(?=[0-9]+$)/);
  if (hostname !== "127.0.0.1" && hostname !== "localhost") throw new HostError("ADDR_NOT_LOOPBACK", "the local host binds 127.0.0.1 only");
  const cfg = loadHostConfig(toml);
  const bytes = typeof wasm === "string" ? readFileSync(wasm) : wasm;
  const t0 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const compileMs = performance.now() - t0;
  checkImports(module);
  const host = {
    cfg,
    module,
    view: workerView(cfg),
    kv: new Map([...cfg.kvStores.entries()].map(([n, m]) => [n, new Map(m)])),
    // One store for every worker, as Fastly shares counts and boxes within a POP.
    erl: new ErlStore({ clock }),
    verbose,
    requestTimeoutMs,
    backendTimeoutMs,
    authority: "",
    env: { FASTLY_HOSTNAME: "localhost", FASTLY_POP: "local", FASTLY_REGION: "local", FASTLY_SERVICE_ID: "local", FASTLY_SERVICE_VERSION: "0", FASTLY_TRACE_ID: "0", FASTLY_CACHE_GENERATION: "0", FASTLY_CUSTOMER_ID: "local" },
    firstInstantiated: 0,
    idle: [],
    queue: [],
    release(slot) {
      const next = this.queue.shift();
      if (next) slot.run(next);
      else this.idle.push(slot);
    }
  };
  const slots = [];
  for (let i = 0; i < workers; i++) slots.push(new Slot(host));
  host.idle.push(...slots);
  const server = createServer((req, res) => {
    const ex = new Exchange(host, req, res);
    setImmediate(() => {
      const slot = host.idle.shift();
      if (slot) slot.run(ex);
      else if (host.queue.length < maxQueue) host.queue.push(ex);
      else {
        res.statusCode = 503;
        res.setHeader("content-length", "0");
        res.end();
      }
    });
  });
  server.keepAliveTimeout = 5e3;
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(Number(portText), hostname === "localhost" ? "127.0.0.1" : hostname, ok);
  });
  const port = server.address().port;
  host.authority = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    compileMs,
    get firstInstantiated() {
      return host.firstInstantiated;
    },
    erl: host.erl,
    async close() {
      await new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
      await Promise.all(slots.map((s) => s.close()));
    }
  };
}
var USAGE = "usage: native-host [-v] -C <fastly.toml> [--addr 127.0.0.1:7676] <main.wasm>";
function parseArgs(argv) {
  const o = { verbose: 0, toml: null, addr: "127.0.0.1:7676", wasm: null, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break;
    if (a === "--version" || a === "-V") o.version = true;
    else if (/^-v+$/.test(a)) o.verbose += a.length - 1;
    else if (a === "-C" || a === "--config") o.toml = argv[++i];
    else if (a.startsWith("--config=")) o.toml = a.slice(9);
    else if (a === "--addr") o.addr = argv[++i];
    else if (a.startsWith("--addr=")) o.addr = a.slice(7);
    else if (a === "serve") continue;
    else if (a.startsWith("-")) throw new HostError("USAGE", `unknown option ${a.split("=")[0]}; ${USAGE}`);
    else if (!o.wasm) o.wasm = a;
    else throw new HostError("USAGE", USAGE);
  }
  return o;
}
async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e.message}
`);
    process.exit(2);
  }
  if (o.version) {
    process.stdout.write("pulse-native-host 0.1.0 (Viceroy-compatible command line, Node Native host)\n");
    return;
  }
  if (!o.wasm) {
    process.stderr.write(`${USAGE}
`);
    process.exit(2);
  }
  const toml = resolve(o.toml || "fastly.toml");
  for (const [what, path] of [["wasm module", resolve(o.wasm)], ["fastly.toml", toml]]) {
    if (!existsSync(path)) {
      process.stderr.write(`native-host: ${what} not found: ${path}
`);
      process.exit(1);
    }
  }
  let h;
  try {
    h = await startHost({ wasm: resolve(o.wasm), toml, addr: o.addr, verbose: o.verbose, workers: Number(process.env.PULSE_HOST_WORKERS || 2) });
  } catch (e) {
    process.stderr.write(`native-host: ${e.code || "START"}: ${e.code ? e.message : "failed to start"}
`);
    process.exit(1);
  }
  process.stdout.write(`Listening on ${h.url}
`);
  if (o.verbose) process.stderr.write(`native-host: compiled ${o.wasm} in ${h.compileMs.toFixed(1)} ms
`);
  const stop = () => h.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
function isMain() {
  try {
    return realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
if (isMain()) main();
export {
  HostError,
  parseArgs,
  startHost
};
