// src/cli/compute-host/worker.mjs
import { parentPort, workerData } from "node:worker_threads";
import { S, SEND_ERR, KV_ERR, INVALID_HANDLE, HostStatus } from "./status.mjs";
var emitWarning = process.emitWarning;
process.emitWarning = (w, ...rest) => {
  if (String(w && w.message ? w.message : w).startsWith("WASI is an experimental feature")) return;
  emitWarning.call(process, w, ...rest);
};
var { WASI } = await import("node:wasi");
var { module, sab, view, rpcTimeoutMs } = workerData;
var ctl = new Int32Array(sab, 0, 4);
var area = new Uint8Array(sab, 16);
var enc = new TextEncoder();
var dec = new TextDecoder();
var strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
var configStores = new Map(view.configStores.map(([n, e]) => [n, new Map(e)]));
var dictionaries = new Map(view.dictionaries.map(([n, e]) => [n, new Map(e)]));
var secretStores = new Map(view.secretStores.map(([n, e]) => [n, new Map(e)]));
var backendNames = new Set(view.backends);
function rpc(op, args, transfer) {
  Atomics.store(ctl, 0, 0);
  parentPort.postMessage({ type: "rpc", op, args }, transfer || []);
  if (Atomics.wait(ctl, 0, 0, rpcTimeoutMs) === "timed-out") throw new HostStatus(S.ERROR);
  const metaLen = ctl[2];
  const dataLen = ctl[3];
  const meta = metaLen ? JSON.parse(dec.decode(area.slice(0, metaLen))) : {};
  const data = area.slice(metaLen, metaLen + dataLen);
  return { meta, data };
}
var HTTP11 = 2;
function concat(chunks) {
  if (chunks.length === 1) return chunks[0];
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
var Headers = class {
  constructor(list) {
    this.list = list ? list.map(([n, v]) => [n.toLowerCase(), v]) : [];
  }
  names() {
    const seen = [];
    for (const [n] of this.list) if (!seen.includes(n)) seen.push(n);
    return seen;
  }
  values(name) {
    return this.list.filter(([n]) => n === name).map(([, v]) => v);
  }
  insert(name, value) {
    this.remove(name);
    this.list.push([name, value]);
  }
  append(name, value) {
    this.list.push([name, value]);
  }
  remove(name) {
    const before = this.list.length;
    this.list = this.list.filter(([n]) => n !== name);
    return before !== this.list.length;
  }
};
function runRequest(msg) {
  const handles = /* @__PURE__ */ new Map();
  let next = 1;
  let memory = null;
  let sentDownstream = false;
  const put = (obj) => {
    const h = next++;
    handles.set(h, obj);
    return h;
  };
  const get = (h, t) => {
    const o = handles.get(h >>> 0);
    if (!o || t && o.t !== t) throw new HostStatus(S.BADF);
    return o;
  };
  const u8 = () => new Uint8Array(memory.buffer);
  const dv = () => new DataView(memory.buffer);
  const check = (p, l) => {
    p >>>= 0;
    l >>>= 0;
    if (p + l > memory.buffer.byteLength) throw new HostStatus(S.INVAL);
    return [p, l];
  };
  const bytes = (p, l) => {
    [p, l] = check(p, l);
    return u8().slice(p, p + l);
  };
  const str = (p, l) => dec.decode(bytes(p, l));
  const latin1 = (p, l) => Buffer.from(bytes(p, l)).toString("latin1");
  const w32 = (p, v) => {
    check(p, 4);
    dv().setUint32(p >>> 0, v >>> 0, true);
  };
  const w16 = (p, v) => {
    check(p, 2);
    dv().setUint16(p >>> 0, v & 65535, true);
  };
  const w64 = (p, v) => {
    check(p, 8);
    dv().setBigInt64(p >>> 0, BigInt(v), true);
  };
  const put_bytes = (p, data) => {
    check(p, data.length);
    u8().set(data, p >>> 0);
  };
  const writeOut = (buf, max, nwritten, data) => {
    if (data.length > max >>> 0) {
      w32(nwritten, data.length);
      throw new HostStatus(S.BUFLEN);
    }
    put_bytes(buf, data);
    w32(nwritten, data.length);
  };
  const writeMulti = (items, buf, bufLen, cursor, endOut, nwritten) => {
    const out = [];
    let used = 0;
    let i = cursor >>> 0;
    let finished = true;
    for (; i < items.length; i++) {
      const b = items[i];
      if (used + b.length + 1 > bufLen >>> 0) {
        if (used === 0) {
          w32(nwritten, b.length + 1);
          throw new HostStatus(S.BUFLEN);
        }
        finished = false;
        break;
      }
      out.push(b, new Uint8Array([0]));
      used += b.length + 1;
    }
    put_bytes(buf, concat(out.length ? out : [new Uint8Array(0)]));
    if (endOut >>> 0) w64(endOut, finished ? -1 : i);
    w32(nwritten, used);
  };
  const hdrBytes = (s) => Buffer.from(s, "latin1");
  const headerName = (p, l) => {
    const n = latin1(p, l).toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(n)) throw new HostStatus(S.INVAL);
    return n;
  };
  const headerValue = (p, l) => {
    const v = latin1(p, l);
    if (/[\r\n\0]/.test(v)) throw new HostStatus(S.INVAL);
    return v;
  };
  const newBody = (src) => ({ t: "body", chunks: [], src: src || null, eof: !src, sink: null });
  const pullRemote = (b, max) => {
    const { meta, data } = rpc(b.src.kind === "down" ? "down-read" : "bbody-read", { pid: b.src.pid, max });
    if (meta.error) throw new HostStatus(S.HTTPINCOMPLETE);
    if (data.length) b.chunks.push(data);
    if (meta.eof) b.eof = true;
  };
  const readBody = (b, max) => {
    if (!b.chunks.length && !b.eof) pullRemote(b, max);
    if (!b.chunks.length) return new Uint8Array(0);
    const first = b.chunks[0];
    if (first.length <= max) {
      b.chunks.shift();
      return first;
    }
    b.chunks[0] = first.subarray(max);
    return first.subarray(0, max);
  };
  const drain = (b) => {
    while (!b.eof) pullRemote(b, 1 << 20);
    const all = concat(b.chunks.length ? b.chunks : [new Uint8Array(0)]);
    b.chunks = [];
    return all;
  };
  const writeBody = (b, data, front) => {
    if (b.sink) {
      parentPort.postMessage({ type: "resp-chunk", data }, [data.buffer]);
      return;
    }
    if (front) b.chunks.unshift(data);
    else b.chunks.push(data);
  };
  const itemDescriptor = (h) => {
    const o = get(h);
    if (o.t === "body") {
      if (o.sink || o.chunks.length || o.eof) return { ready: true };
      return { kind: o.src.kind, pid: o.src.pid };
    }
    if (o.t === "pending") return o.result ? { ready: true } : { kind: "pending", pid: o.pid };
    throw new HostStatus(S.BADF);
  };
  let pids = 0;
  const sendAsync = (reqH, bodyH, nameP, nameL) => {
    const r = get(reqH, "req");
    const b = get(bodyH, "body");
    const backend = str(nameP, nameL);
    if (!backendNames.has(backend)) throw new HostStatus(S.INVAL);
    const body = drain(b);
    handles.delete(bodyH >>> 0);
    handles.delete(reqH >>> 0);
    const pid = ++pids;
    const copy = new Uint8Array(body);
    parentPort.postMessage({ type: "backend-send", pid, backend, method: r.method, uri: r.uri, headers: r.headers.list, body: copy }, [copy.buffer]);
    return put({ t: "pending", pid, result: null });
  };
  const settle = (p, meta) => {
    p.result = meta;
  };
  const finishPending = (p, detailP, respOut, bodyOut) => {
    const m = p.result;
    if (detailP >>> 0) {
      check(detailP, 20);
      dv().setUint32(detailP >>> 0, m.ok ? SEND_ERR.OK : m.detail, true);
      dv().setUint32((detailP >>> 0) + 4, 0, true);
    }
    if (!m.ok) {
      w32(respOut, INVALID_HANDLE);
      w32(bodyOut, INVALID_HANDLE);
      throw new HostStatus(m.status);
    }
    const resp = put({ t: "resp", status: m.status, headers: new Headers(m.headers), version: HTTP11, remote: m.remote });
    const body = put(newBody({ kind: "backend", pid: p.pid }));
    w32(respOut, resp);
    w32(bodyOut, body);
  };
  const waitPending = (p) => {
    if (!p.result) settle(p, rpc("pending-wait", { pid: p.pid }).meta);
  };
  const erlText = (p, l) => {
    try {
      return strictUtf8.decode(bytes(p, l));
    } catch {
      throw new HostStatus(S.INVAL);
    }
  };
  const erl = (call, args) => {
    const { meta } = rpc("erl", { call, args });
    if (meta.inval) throw new HostStatus(S.INVAL);
    if (meta.error) throw new HostStatus(S.ERROR);
    return meta.value;
  };
  const erlAnswer = (out, call, args) => {
    check(out, 4);
    w32(out, erl(call, args));
  };
  const dictGet = (map, h, t, keyP, keyL, valP, max, nwOut) => {
    const d = get(h, t);
    const v = map.get(d.name).get(str(keyP, keyL));
    if (v === void 0) throw new HostStatus(S.NONE);
    writeOut(valP, max, nwOut, enc.encode(v));
  };
  const down = { method: msg.head.method, uri: msg.head.uri, headers: new Headers(msg.head.headers), version: HTTP11 };
  const reqHeaderImpl = (t) => ({
    header_names_get: (h, buf, len, cursor, endOut, nw) => writeMulti(get(h, t).headers.names().map(hdrBytes), buf, len, cursor, endOut, nw),
    header_value_get: (h, np, nl, vp, max, nw) => {
      const vs = get(h, t).headers.values(headerName(np, nl));
      if (!vs.length) throw new HostStatus(S.NONE);
      writeOut(vp, max, nw, hdrBytes(vs[0]));
    },
    header_values_get: (h, np, nl, buf, len, cursor, endOut, nw) => writeMulti(get(h, t).headers.values(headerName(np, nl)).map(hdrBytes), buf, len, cursor, endOut, nw),
    header_values_set: (h, np, nl, vp, vl) => {
      const o = get(h, t);
      const name = headerName(np, nl);
      const raw = latin1(vp, vl).split("\0");
      raw.pop();
      o.headers.remove(name);
      for (const v of raw) o.headers.append(name, v);
    },
    header_insert: (h, np, nl, vp, vl) => get(h, t).headers.insert(headerName(np, nl), headerValue(vp, vl)),
    header_append: (h, np, nl, vp, vl) => get(h, t).headers.append(headerName(np, nl), headerValue(vp, vl)),
    header_remove: (h, np, nl) => {
      if (!get(h, t).headers.remove(headerName(np, nl))) throw new HostStatus(S.INVAL);
    },
    version_get: (h, out) => w32(out, get(h, t).version),
    version_set: (h, v) => {
      if (v >>> 0 > 4) throw new HostStatus(S.INVAL);
      get(h, t).version = v >>> 0;
    },
    close: (h) => {
      get(h, t);
      handles.delete(h >>> 0);
    },
    framing_headers_mode_set: (h, mode) => {
      get(h, t);
      if (mode >>> 0 !== 0) throw new HostStatus(S.UNSUPPORTED);
    }
  });
  const ipBytes = (ip) => {
    const parts = String(ip || "127.0.0.1").replace(/^::ffff:/, "").split(".");
    return parts.length === 4 ? new Uint8Array(parts.map(Number)) : new Uint8Array(16);
  };
  const impl = {
    fastly_abi: {
      init: () => {
      }
    },
    fastly_http_body: {
      new: (out) => w32(out, put(newBody())),
      read: (h, buf, len, nwOut) => {
        const b = get(h, "body");
        if (b.sink) throw new HostStatus(S.BADF);
        const data = readBody(b, len >>> 0);
        put_bytes(buf, data);
        w32(nwOut, data.length);
      },
      write: (h, buf, len, end, nwOut) => {
        const b = get(h, "body");
        if (b.src && !b.eof && !b.sink) drain(b);
        writeBody(b, bytes(buf, len), end >>> 0 === 1);
        w32(nwOut, len);
      },
      append: (dest, src) => {
        const d = get(dest, "body");
        const s = get(src, "body");
        const data = drain(s);
        handles.delete(src >>> 0);
        if (data.length) writeBody(d, new Uint8Array(data), false);
      },
      close: (h) => {
        const b = get(h, "body");
        if (b.sink) parentPort.postMessage({ type: "resp-end" });
        handles.delete(h >>> 0);
      },
      abandon: (h) => {
        const b = get(h, "body");
        if (b.sink) parentPort.postMessage({ type: "resp-abort" });
        handles.delete(h >>> 0);
      },
      known_length: (h, out) => {
        const b = get(h, "body");
        if (b.src && !b.eof) throw new HostStatus(S.NONE);
        let n = 0;
        for (const c of b.chunks) n += c.length;
        w64(out, n);
      }
    },
    fastly_http_req: {
      ...reqHeaderImpl("req"),
      body_downstream_get: (reqOut, bodyOut) => {
        if (msg.downTaken) throw new HostStatus(S.ERROR);
        msg.downTaken = true;
        w32(reqOut, put({ t: "req", ...down, headers: new Headers(msg.head.headers) }));
        const b = newBody({ kind: "down" });
        if (msg.first) {
          if (msg.first.data.length) b.chunks.push(msg.first.data);
          b.eof = msg.first.eof;
        }
        w32(bodyOut, put(b));
      },
      new: (out) => w32(out, put({ t: "req", method: "GET", uri: "", headers: new Headers(), version: HTTP11 })),
      method_get: (h, buf, len, nw) => writeOut(buf, len, nw, enc.encode(get(h, "req").method)),
      method_set: (h, p, l) => {
        const m = latin1(p, l);
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(m)) throw new HostStatus(S.HTTPINVALID);
        get(h, "req").method = m;
      },
      uri_get: (h, buf, len, nw) => writeOut(buf, len, nw, enc.encode(get(h, "req").uri)),
      uri_set: (h, p, l) => {
        const u = str(p, l);
        try {
          new URL(u);
        } catch {
          throw new HostStatus(S.HTTPINVALID);
        }
        get(h, "req").uri = u;
      },
      original_header_names_get: (buf, len, cursor, endOut, nw) => writeMulti(msg.head.headers.map(([n]) => hdrBytes(n)), buf, len, cursor, endOut, nw),
      original_header_count: (out) => w32(out, msg.head.headers.length),
      downstream_client_ip_addr: (out, nw) => {
        const b = ipBytes(msg.client);
        put_bytes(out, b);
        w32(nw, b.length);
      },
      downstream_server_ip_addr: (out, nw) => {
        const b = ipBytes("127.0.0.1");
        put_bytes(out, b);
        w32(nw, b.length);
      },
      downstream_client_request_id: (buf, len, nw) => writeOut(buf, len, nw, enc.encode(msg.requestId)),
      fastly_key_is_valid: (out) => w32(out, 0),
      // No cache exists in this host: "do not cache" and TTL overrides hold trivially.
      cache_override_set: (h) => void get(h, "req"),
      cache_override_v2_set: (h) => void get(h, "req"),
      auto_decompress_response_set: (h, encodings) => {
        get(h, "req");
        if (encodings >>> 0 !== 0) throw new HostStatus(S.UNSUPPORTED);
      },
      send_async: (h, b, np, nl, out) => w32(out, sendAsync(h, b, np, nl)),
      send_async_v2: (h, b, np, nl, streaming, out) => {
        if (streaming >>> 0) throw new HostStatus(S.UNSUPPORTED);
        w32(out, sendAsync(h, b, np, nl));
      },
      send: (h, b, np, nl, respOut, bodyOut) => {
        const p = get(sendAsync(h, b, np, nl));
        waitPending(p);
        finishPending(p, 0, respOut, bodyOut);
      },
      send_v2: (h, b, np, nl, detail, respOut, bodyOut) => {
        const p = get(sendAsync(h, b, np, nl));
        waitPending(p);
        finishPending(p, detail, respOut, bodyOut);
      },
      send_v3: (h, b, np, nl, detail, respOut, bodyOut) => impl.fastly_http_req.send_v2(h, b, np, nl, detail, respOut, bodyOut),
      pending_req_poll: (ph, doneOut, respOut, bodyOut) => impl.fastly_http_req.pending_req_poll_v2(ph, 0, doneOut, respOut, bodyOut),
      pending_req_poll_v2: (ph, detail, doneOut, respOut, bodyOut) => {
        const p = get(ph, "pending");
        if (!p.result) {
          const { meta } = rpc("pending-poll", { pid: p.pid });
          if (meta.done) settle(p, meta);
        }
        if (!p.result) {
          w32(doneOut, 0);
          w32(respOut, INVALID_HANDLE);
          w32(bodyOut, INVALID_HANDLE);
          return;
        }
        w32(doneOut, 1);
        handles.delete(ph >>> 0);
        finishPending(p, detail, respOut, bodyOut);
      },
      pending_req_wait: (ph, respOut, bodyOut) => impl.fastly_http_req.pending_req_wait_v2(ph, 0, respOut, bodyOut),
      pending_req_wait_v2: (ph, detail, respOut, bodyOut) => {
        const p = get(ph, "pending");
        waitPending(p);
        handles.delete(ph >>> 0);
        finishPending(p, detail, respOut, bodyOut);
      },
      pending_req_select: (hsP, hsL, idxOut, respOut, bodyOut) => impl.fastly_http_req.pending_req_select_v2(hsP, hsL, 0, idxOut, respOut, bodyOut),
      pending_req_select_v2: (hsP, hsL, detail, idxOut, respOut, bodyOut) => {
        check(hsP, hsL * 4);
        const hs = [];
        for (let i = 0; i < hsL >>> 0; i++) hs.push(dv().getUint32((hsP >>> 0) + 4 * i, true));
        if (!hs.length) throw new HostStatus(S.INVAL);
        const idx = selectItems(hs, 0);
        const p = get(hs[idx], "pending");
        waitPending(p);
        handles.delete(hs[idx]);
        w32(idxOut, idx);
        finishPending(p, detail, respOut, bodyOut);
      }
    },
    fastly_http_downstream: {
      downstream_client_ip_addr: (_r, out, nw) => impl.fastly_http_req.downstream_client_ip_addr(out, nw),
      downstream_server_ip_addr: (_r, out, nw) => impl.fastly_http_req.downstream_server_ip_addr(out, nw),
      downstream_client_request_id: (_r, buf, len, nw) => impl.fastly_http_req.downstream_client_request_id(buf, len, nw),
      // One request per instance: there is never a next downstream request.
      next_request: () => {
        throw new HostStatus(S.UNSUPPORTED);
      }
    },
    fastly_http_resp: {
      ...reqHeaderImpl("resp"),
      new: (out) => w32(out, put({ t: "resp", status: 200, headers: new Headers(), version: HTTP11 })),
      status_get: (h, out) => w16(out, get(h, "resp").status),
      status_set: (h, s) => {
        s >>>= 0;
        if (s < 100 || s > 999) throw new HostStatus(S.INVAL);
        get(h, "resp").status = s;
      },
      send_downstream: (h, b, streaming) => {
        const r = get(h, "resp");
        const body = get(b, "body");
        if (sentDownstream) throw new HostStatus(S.ERROR);
        if (r.status < 200) throw new HostStatus(S.HTTPUSER);
        sentDownstream = true;
        handles.delete(h >>> 0);
        if (streaming >>> 0) {
          const pending = body.src ? drain(body) : concat(body.chunks.length ? body.chunks : [new Uint8Array(0)]);
          const copy = new Uint8Array(pending);
          parentPort.postMessage({ type: "resp-start", status: r.status, headers: r.headers.list, streaming: true, body: copy }, [copy.buffer]);
          body.chunks = [];
          body.sink = true;
          return;
        }
        const all = new Uint8Array(drain(body));
        handles.delete(b >>> 0);
        parentPort.postMessage({ type: "resp-start", status: r.status, headers: r.headers.list, streaming: false, body: all }, [all.buffer]);
      },
      http_keepalive_mode_set: (h, mode) => {
        get(h, "resp");
        if (mode >>> 0 > 1) throw new HostStatus(S.INVAL);
      },
      get_addr_dest_ip: (h, out, nw) => {
        const r = get(h, "resp");
        if (!r.remote) throw new HostStatus(S.NONE);
        const b = ipBytes(r.remote.ip);
        put_bytes(out, b);
        w32(nw, b.length);
      },
      get_addr_dest_port: (h, out) => {
        const r = get(h, "resp");
        if (!r.remote) throw new HostStatus(S.NONE);
        w16(out, r.remote.port);
      }
    },
    fastly_async_io: {
      select: (hsP, hsL, timeoutMs, out) => {
        check(hsP, hsL * 4);
        const hs = [];
        for (let i = 0; i < hsL >>> 0; i++) hs.push(dv().getUint32((hsP >>> 0) + 4 * i, true));
        if (!hs.length && timeoutMs >>> 0 === 0) throw new HostStatus(S.INVAL);
        w32(out, selectItems(hs, timeoutMs >>> 0));
      },
      is_ready: (h, out) => {
        const d = itemDescriptor(h);
        if (d.ready) return w32(out, 1);
        w32(out, rpc("ready", { items: [d] }).meta.ready ? 1 : 0);
      }
    },
    fastly_dictionary: {
      open: (p, l, out) => {
        const name = str(p, l);
        if (!dictionaries.has(name)) throw new HostStatus(S.BADF);
        w32(out, put({ t: "dict", name }));
      },
      get: (h, kp, kl, vp, max, nw) => dictGet(dictionaries, h, "dict", kp, kl, vp, max, nw)
    },
    fastly_config_store: {
      open: (p, l, out) => {
        const name = str(p, l);
        if (!configStores.has(name)) throw new HostStatus(S.BADF);
        w32(out, put({ t: "cstore", name }));
      },
      get: (h, kp, kl, vp, max, nw) => dictGet(configStores, h, "cstore", kp, kl, vp, max, nw)
    },
    fastly_secret_store: {
      open: (p, l, out) => {
        const name = str(p, l);
        if (!secretStores.has(name)) throw new HostStatus(S.NONE);
        w32(out, put({ t: "sstore", name }));
      },
      get: (h, kp, kl, out) => {
        const s = get(h, "sstore");
        const v = secretStores.get(s.name).get(str(kp, kl));
        if (v === void 0) throw new HostStatus(S.NONE);
        w32(out, put({ t: "secret", value: new Uint8Array(v) }));
      },
      plaintext: (h, buf, len, nw) => writeOut(buf, len, nw, get(h, "secret").value),
      from_bytes: (buf, len, out) => w32(out, put({ t: "secret", value: bytes(buf, len) }))
    },
    fastly_kv_store: {
      open: (p, l, out) => {
        const name = str(p, l);
        if (!rpc("kv-open", { name }).meta.ok) throw new HostStatus(S.NONE);
        w32(out, put({ t: "kv", name }));
      },
      lookup: (h, kp, kl, _mask, _cfg, out) => {
        const s = get(h, "kv");
        const r = rpc("kv-lookup", { name: s.name, key: str(kp, kl) });
        w32(out, put({ t: "kvop", r }));
      },
      lookup_wait: (h, bodyOut, metaP, metaLen, nw, genOut, errOut) => kvLookupWait(h, bodyOut, metaP, metaLen, nw, genOut, errOut, false),
      lookup_wait_v2: (h, bodyOut, metaP, metaLen, nw, genOut, errOut) => kvLookupWait(h, bodyOut, metaP, metaLen, nw, genOut, errOut, true),
      insert: (h, kp, kl, bodyH, mask, cfgP, out) => {
        const s = get(h, "kv");
        if (mask >>> 0 & ~1 || cfgP >>> 0 && (check(cfgP, 4), dv().getUint32(cfgP >>> 0, true)) !== 0) throw new HostStatus(S.UNSUPPORTED);
        const data = new Uint8Array(drain(get(bodyH, "body")));
        handles.delete(bodyH >>> 0);
        const r = rpc("kv-insert", { name: s.name, key: str(kp, kl), data }, [data.buffer]);
        w32(out, put({ t: "kvop", r }));
      },
      insert_wait: (h, errOut) => {
        const op = get(h, "kvop");
        handles.delete(h >>> 0);
        w32(errOut, op.r.meta.kvError);
      },
      delete: (h, kp, kl, _mask, _cfg, out) => {
        const s = get(h, "kv");
        const r = rpc("kv-delete", { name: s.name, key: str(kp, kl) });
        w32(out, put({ t: "kvop", r }));
      },
      delete_wait: (h, errOut) => {
        const op = get(h, "kvop");
        handles.delete(h >>> 0);
        w32(errOut, op.r.meta.kvError);
      }
    },
    fastly_erl: {
      check_rate: (rcP, rcL, eP, eL, delta, window, limit, pbP, pbL, ttl, out) => erlAnswer(out, "check_rate", [erlText(rcP, rcL), erlText(eP, eL), delta >>> 0, window >>> 0, limit >>> 0, erlText(pbP, pbL), ttl >>> 0]),
      ratecounter_increment: (rcP, rcL, eP, eL, delta) => void erl("ratecounter_increment", [erlText(rcP, rcL), erlText(eP, eL), delta >>> 0]),
      ratecounter_lookup_rate: (rcP, rcL, eP, eL, window, out) => erlAnswer(out, "ratecounter_lookup_rate", [erlText(rcP, rcL), erlText(eP, eL), window >>> 0]),
      ratecounter_lookup_count: (rcP, rcL, eP, eL, duration, out) => erlAnswer(out, "ratecounter_lookup_count", [erlText(rcP, rcL), erlText(eP, eL), duration >>> 0]),
      penaltybox_add: (pbP, pbL, eP, eL, ttl) => void erl("penaltybox_add", [erlText(pbP, pbL), erlText(eP, eL), ttl >>> 0]),
      penaltybox_has: (pbP, pbL, eP, eL, out) => erlAnswer(out, "penaltybox_has", [erlText(pbP, pbL), erlText(eP, eL)])
    },
    fastly_log: {
      endpoint_get: (p, l, out) => {
        const name = str(p, l);
        if (view.logEndpoints && !view.logEndpoints.includes(name)) throw new HostStatus(S.INVAL);
        w32(out, put({ t: "log", name }));
      },
      write: (h, p, l, nw) => {
        const e = get(h, "log");
        parentPort.postMessage({ type: "log", endpoint: e.name, line: str(p, l) });
        w32(nw, l);
      }
    },
    fastly_backend: {
      exists: (p, l, out) => w32(out, backendNames.has(str(p, l)) ? 1 : 0),
      is_healthy: (p, l, out) => {
        if (!backendNames.has(str(p, l))) throw new HostStatus(S.INVAL);
        w32(out, 0);
      },
      is_dynamic: (p, l, out) => {
        if (!backendNames.has(str(p, l))) throw new HostStatus(S.INVAL);
        w32(out, 0);
      },
      is_ssl: (p, l, out) => {
        if (!backendNames.has(str(p, l))) throw new HostStatus(S.INVAL);
        w32(out, 0);
      }
    }
  };
  function kvLookupWait(h, bodyOut, metaP, metaLen, nw, genOut, errOut, wide) {
    const op = get(h, "kvop");
    handles.delete(h >>> 0);
    const { meta, data } = op.r;
    w32(errOut, meta.kvError);
    if (meta.kvError !== KV_ERR.OK) {
      w32(bodyOut, INVALID_HANDLE);
      return;
    }
    const b = newBody();
    b.chunks.push(data);
    w32(bodyOut, put(b));
    const m = enc.encode(meta.metadata || "");
    if (m.length > metaLen >>> 0) {
      w32(nw, m.length);
      throw new HostStatus(S.BUFLEN);
    }
    if (metaP >>> 0) put_bytes(metaP, m);
    w32(nw, m.length);
    if (genOut >>> 0) {
      if (wide) w64(genOut, 0);
      else w32(genOut, 0);
    }
  }
  function selectItems(hs, timeoutMs) {
    const items = hs.map(itemDescriptor);
    const ready = items.findIndex((d) => d.ready);
    if (ready >= 0) return ready;
    const { meta } = rpc("select", { items, timeoutMs });
    if (meta.index < 0) return INVALID_HANDLE;
    return meta.index;
  }
  const provided = {};
  for (const d of WebAssembly.Module.imports(module)) {
    if (d.kind !== "function" || !d.module.startsWith("fastly_")) continue;
    const fn = impl[d.module] && impl[d.module][d.name];
    const entry = provided[d.module] ??= {};
    entry[d.name] = fn ? (...args) => {
      try {
        fn(...args);
        return S.OK;
      } catch (e) {
        if (e instanceof HostStatus) return e.status;
        parentPort.postMessage({ type: "host-error", call: `${d.module}.${d.name}` });
        return S.ERROR;
      }
    } : () => S.UNSUPPORTED;
  }
  const wasi = new WASI({ version: "preview1", args: ["main.wasm"], env: msg.env, returnOnExit: true });
  let exitCode = 0;
  let trapped = false;
  try {
    const instance = new WebAssembly.Instance(module, { ...provided, wasi_snapshot_preview1: wasi.wasiImport });
    memory = instance.exports.memory;
    parentPort.postMessage({ type: "instantiated" });
    exitCode = wasi.start(instance);
  } catch (e) {
    trapped = true;
    parentPort.postMessage({ type: "trap", name: e && e.name === "RuntimeError" ? "RuntimeError" : "Error" });
  }
  parentPort.postMessage({ type: "done", exitCode, trapped });
}
parentPort.on("message", (msg) => {
  if (msg.type === "run") runRequest(msg);
});
