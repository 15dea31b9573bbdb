var __getOwnPropNames = Object.getOwnPropertyNames;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};

// errors.js
var require_errors = __commonJS({
  "errors.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.PulseCoreError = exports2.PulseConfigError = exports2.PulseError = void 0;
    var PulseError = class extends Error {
    };
    exports2.PulseError = PulseError;
    var PulseConfigError = class extends PulseError {
      code = "PULSE_ERR_CONFIG";
      constructor(message) {
        super(message);
        this.name = "PulseConfigError";
      }
    };
    exports2.PulseConfigError = PulseConfigError;
    var PulseCoreError = class extends PulseError {
      code = "PULSE_ERR_CORE";
      constructor(message) {
        super(message);
        this.name = "PulseCoreError";
      }
    };
    exports2.PulseCoreError = PulseCoreError;
  }
});

// core/exports.js
var require_exports = __commonJS({
  "core/exports.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.CORE_FUNCTIONS = void 0;
    exports2.CORE_FUNCTIONS = [
      "pulse_alloc",
      "pulse_dealloc",
      "pulse_engine_new",
      "pulse_engine_error_ptr",
      "pulse_engine_error_len",
      "pulse_engine_free",
      "pulse_request_new",
      "pulse_request_head",
      "pulse_request_body",
      "pulse_request_end",
      "pulse_request_abort",
      "pulse_request_tick",
      "pulse_request_http_response",
      "pulse_request_http_failure",
      "pulse_request_handler_output",
      "pulse_request_handler_failure",
      "pulse_request_progress",
      "pulse_request_timeout_ms",
      "pulse_request_event",
      "pulse_request_cached",
      "pulse_request_cache_entry",
      "pulse_request_rate",
      "pulse_output_ptr",
      "pulse_output_len",
      "pulse_request_free",
      "pulse_engine_check",
      "pulse_engine_fault",
      "pulse_engine_fault_event",
      "pulse_engine_service_names",
      "pulse_check_output_ptr",
      "pulse_check_output_len",
      "pulse_defaults_ptr",
      "pulse_defaults_len",
      "pulse_corpus_index"
    ];
  }
});

// core/loader.js
var require_loader = __commonJS({
  "core/loader.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.instantiateCore = instantiateCore;
    var errors_1 = require_errors();
    var exports_1 = require_exports();
    var PACKAGE_WASM = "@pulse-compute/mcp/pulse_core.wasm";
    var NO_FILE_SYSTEM = "core: pulse_core.wasm cannot be read from a file here; pass the pulse_core.wasm module or its bytes as core";
    var NO_PACKAGE_WASM = "core: the package file pulse_core.wasm cannot be read; pass the pulse_core.wasm module or its bytes as core";
    var packageModule;
    function wasmApi() {
      return globalThis.WebAssembly;
    }
    var BUILT_LOADER = /[\\/]dist[\\/](?:node[\\/]bundle|cjs[\\/]core[\\/]loader)\.js$/;
    function packageWasmBytes() {
      const builtin = globalThis.process?.getBuiltinModule;
      const moduleApi = builtin?.("node:module");
      const fs = builtin?.("node:fs");
      if (moduleApi === void 0 || fs === void 0 || typeof __filename !== "string")
        throw new errors_1.PulseConfigError(NO_FILE_SYSTEM);
      const built = BUILT_LOADER.exec(__filename);
      if (built !== null) {
        const sep = __filename[built.index];
        try {
          return fs.readFileSync(`${__filename.slice(0, built.index)}${sep}wasm${sep}pulse_core.wasm`);
        } catch {
        }
      }
      try {
        return fs.readFileSync(moduleApi.createRequire(__filename).resolve(PACKAGE_WASM));
      } catch {
        throw new errors_1.PulseConfigError(NO_PACKAGE_WASM);
      }
    }
    function wasm2jsCore() {
      const glue = require("../cjs/core/generated/core-wasm2js.cjs");
      return checked(glue.createCoreWasm2js());
    }
    function compile(wa, bytes) {
      try {
        return new wa.Module(bytes);
      } catch {
        throw new errors_1.PulseConfigError("core: cannot compile the wasm here; pass the precompiled pulse_core.wasm module as core");
      }
    }
    function checked(exports3) {
      const e = exports3;
      const complete = typeof e === "object" && e !== null && typeof e.memory?.buffer === "object" && exports_1.CORE_FUNCTIONS.every((name) => typeof e[name] === "function");
      if (!complete)
        throw new errors_1.PulseConfigError("core: the module does not export the pulse-core ABI");
      return e;
    }
    function instantiateCore(source) {
      const wa = wasmApi();
      if (wa === void 0) {
        if (source !== void 0)
          throw new errors_1.PulseConfigError("core: WebAssembly is absent here; omit core to use the built-in JavaScript core");
        return wasm2jsCore();
      }
      let module3;
      if (source === void 0) {
        packageModule ??= compile(wa, packageWasmBytes());
        module3 = packageModule;
      } else if (source instanceof wa.Module) {
        module3 = source;
      } else {
        module3 = compile(wa, source);
      }
      let instance;
      try {
        instance = new wa.Instance(module3, {});
      } catch {
        throw new errors_1.PulseCoreError("core: the wasm module could not be instantiated");
      }
      return checked(instance.exports);
    }
  }
});

// core/engine.js
var require_engine = __commonJS({
  "core/engine.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.CoreRequest = exports2.Engine = void 0;
    exports2.internalError = internalError;
    exports2.corpusIndexer = corpusIndexer;
    var errors_1 = require_errors();
    var loader_1 = require_loader();
    var RATE_ANSWERS = { counted: 0, boxed: 1, penalized: 2, failed: 3 };
    var FAULT_CODES = { bodyInterrupted: 0, malformedFraming: 1, headTooLarge: 2, internal: 3 };
    var HTTP_FAILURES = { unreachable: 0, timedOut: 1 };
    var CLIENT_ADDRESS = /^[0-9A-Za-z.:[\]%_-]{1,64}$/;
    var HTTP_METHODS = /* @__PURE__ */ new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
    var CONTINUE = Object.freeze({ kind: "continue" });
    var encoder = new TextEncoder();
    var decoder = new TextDecoder();
    var INTERNAL_BODY = encoder.encode('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}');
    function internalError() {
      return {
        kind: "respond",
        status: 500,
        headers: [
          ["content-type", "application/json"],
          ["cache-control", "no-store"]
        ],
        body: INTERNAL_BODY.slice(),
        close: true
      };
    }
    function latin1Bytes(text) {
      const out = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        out[i] = c > 255 ? 63 : c;
      }
      return out;
    }
    function latin1Text(bytes, start, end) {
      let s = "";
      for (let i = start; i < end; i += 4096) {
        s += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 4096)));
      }
      return s;
    }
    var ownCopy = (view) => view.slice();
    function decodeReply(memory, start, end, copy) {
      let head = repeatedHead(memory, start, end);
      let blank;
      if (head !== void 0)
        blank = start + lastHeadBytes.length;
      else {
        blank = -1;
        let ascii = true;
        for (let i = start; i + 3 < end; i++) {
          const b = memory[i];
          if (b === 13 && memory[i + 1] === 10 && memory[i + 2] === 13 && memory[i + 3] === 10) {
            blank = i;
            break;
          }
          if (b > 127)
            ascii = false;
        }
        if (blank < 0)
          return void 0;
        head = headOf(memory, start, blank, ascii);
        if (head === void 0)
          return void 0;
      }
      return { kind: "respond", status: head.status, headers: head.headers, body: copy(memory.subarray(blank + 4, end)), close: head.close };
    }
    function utf8Text(m, start, end) {
      return decoder.decode(m.subarray(start, end));
    }
    var EVENT_FIXED = 52;
    var NULL_LENGTH = 4294967295;
    function u32At(m, at) {
      return (m[at] | m[at + 1] << 8 | m[at + 2] << 16 | m[at + 3] << 24) >>> 0;
    }
    var lastEventTexts = Array.from({ length: 8 }, () => ({ bytes: new Uint8Array(0), text: "" }));
    var eventTexts = [null, null, null, null, null, null, null, null];
    function eventText(slot, m, start, end) {
      const last = lastEventTexts[slot];
      const len = end - start;
      if (last.bytes.length === len) {
        let i = 0;
        while (i < len && last.bytes[i] === m[start + i])
          i++;
        if (i === len)
          return last.text;
      }
      const text = decoder.decode(m.subarray(start, end));
      if (len <= 256) {
        last.bytes = m.slice(start, end);
        last.text = text;
      }
      return text;
    }
    function decodeEvent(m, start, end) {
      if (end - start < EVENT_FIXED)
        return void 0;
      const texts = eventTexts;
      let at = start + EVENT_FIXED;
      for (let i = 0; i < texts.length; i++) {
        const len = u32At(m, start + 20 + 4 * i);
        if (len === NULL_LENGTH) {
          texts[i] = null;
          continue;
        }
        const from = at;
        at += len;
        if (at > end)
          return void 0;
        texts[i] = eventText(i, m, from, at);
      }
      if (at !== end)
        return void 0;
      const flags = u32At(m, start + 8);
      return {
        method: texts[0],
        requestId: texts[7],
        name: texts[1],
        status: u32At(m, start),
        code: (flags & 1) !== 0 ? u32At(m, start + 4) | 0 : null,
        isError: (flags & 2) !== 0 ? (flags & 4) !== 0 : null,
        refusal: texts[2],
        bytesIn: u32At(m, start + 12),
        bytesOut: u32At(m, start + 16),
        protocolVersion: texts[3],
        sub: texts[4],
        traceparent: texts[5],
        tracestate: texts[6]
      };
    }
    var lastHeadBytes = new Uint8Array(0);
    var lastHead;
    function repeatedHead(memory, start, end) {
      const known = lastHeadBytes;
      const blank = start + known.length;
      if (lastHead === void 0 || blank + 4 > end)
        return void 0;
      if (memory[blank] !== 13 || memory[blank + 1] !== 10 || memory[blank + 2] !== 13 || memory[blank + 3] !== 10)
        return void 0;
      for (let i = 0; i < known.length; i++)
        if (memory[start + i] !== known[i])
          return void 0;
      return lastHead;
    }
    function headOf(memory, start, blank, ascii) {
      const lines = (ascii ? decoder.decode(memory.subarray(start, blank)) : latin1Text(memory, start, blank)).split("\r\n");
      const status = Number(lines[0]);
      if (!Number.isInteger(status) || status < 100 || status > 599)
        return void 0;
      const headers = [];
      let close = false;
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        const colon = line.indexOf(": ");
        if (colon <= 0)
          return void 0;
        const name = line.slice(0, colon);
        const value = line.slice(colon + 2);
        if (name === "connection")
          close = value === "close";
        else
          headers.push(Object.freeze([name, value]));
      }
      lastHeadBytes = memory.slice(start, blank);
      lastHead = Object.freeze({ status, headers: Object.freeze(headers), close });
      return lastHead;
    }
    var rateMemo = [void 0, void 0];
    var rateMemoLast = 0;
    function performOf(memory, start, end) {
      const len = end - start;
      for (let n = 1; n <= 2; n++) {
        const slot = (rateMemoLast + n) % 2;
        const m = rateMemo[slot];
        if (m === void 0 || m.bytes.length !== len)
          continue;
        let i = len - 1;
        while (i >= 0 && m.bytes[i] === memory[start + i])
          i--;
        if (i < 0) {
          rateMemoLast = slot;
          return m.action;
        }
      }
      const effect = decodeEffect(memory.subarray(start, end));
      if (effect === void 0)
        return void 0;
      if (effect.kind !== "rate")
        return { kind: "perform", effect };
      const action = Object.freeze({ kind: "perform", effect: Object.freeze(effect) });
      rateMemoLast = (rateMemoLast + 1) % 2;
      rateMemo[rateMemoLast] = { bytes: memory.slice(start, end), action };
      return action;
    }
    function decodeEffect(json) {
      let e;
      try {
        e = JSON.parse(decoder.decode(json));
      } catch {
        return void 0;
      }
      if (typeof e !== "object" || e === null)
        return void 0;
      if (e.kind === "rate") {
        const named = typeof e.rateCounter === "string" && typeof e.penaltyBox === "string" && typeof e.entry === "string";
        const op = e.op === "count" && typeof e.windowS === "number" && typeof e.charge === "boolean" || e.op === "penalize" && typeof e.ttlS === "number";
        return named && op ? e : void 0;
      }
      if (typeof e.timeoutMs !== "number")
        return void 0;
      if (e.kind === "handler" && typeof e.op === "string")
        return e;
      const ok = e.kind === "http" && typeof e.backend === "string" && HTTP_METHODS.has(e.method) && typeof e.url === "string" && Array.isArray(e.headers) && typeof e.maxBytes === "number" && (e.body === void 0 || typeof e.body === "string") && (e.cacheKey === void 0 || typeof e.cacheKey === "string");
      return ok ? e : void 0;
    }
    var Engine = class _Engine {
      configJson;
      source;
      copyOut;
      core;
      handle;
      poisoned = false;
      /** Bumped on every rebuild, so requests of a discarded instance never touch the new one. */
      generation = 0;
      constructor(configJson, source, copyOut) {
        this.configJson = configJson;
        this.source = source;
        this.copyOut = copyOut;
        this.core = (0, loader_1.instantiateCore)(source);
        this.handle = _Engine.newEngine(this.core, configJson);
      }
      /** Instantiates the core and builds its engine; throws `PulseConfigError` with the core's message. */
      static create(configJson, source, copyOut = ownCopy) {
        return new _Engine(configJson, source, copyOut);
      }
      static newEngine(core, configJson) {
        const bytes = encoder.encode(configJson);
        const handle = withInput(core, bytes, (ptr2, len2) => core.pulse_engine_new(ptr2, len2)) >>> 0;
        if (handle !== 0)
          return handle;
        const ptr = core.pulse_engine_error_ptr() >>> 0;
        const len = core.pulse_engine_error_len() >>> 0;
        const message = decoder.decode(new Uint8Array(core.memory.buffer, ptr, Math.min(len, 1024)));
        throw new errors_1.PulseConfigError(message.length > 0 ? message : "configuration rejected by the core");
      }
      /** Marks instance `generation` unusable after a trap; the next request rebuilds it. */
      poison(generation) {
        if (generation === this.generation)
          this.poisoned = true;
      }
      /**
       * Starts one request at monotonic `now`; `epochMs` (wall clock, ms since the Unix epoch) dates the
       * expiry of multi-round `requestState`.
       */
      request(now, epochMs = Date.now()) {
        if (this.poisoned) {
          try {
            this.core = (0, loader_1.instantiateCore)(this.source);
            this.handle = _Engine.newEngine(this.core, this.configJson);
          } catch {
            throw new errors_1.PulseCoreError("core: the instance could not be rebuilt");
          }
          this.poisoned = false;
          this.generation++;
        }
        let req;
        try {
          req = this.core.pulse_request_new(this.handle, now, epochMs) >>> 0;
        } catch {
          this.poison(this.generation);
          throw new errors_1.PulseCoreError("core: request could not start");
        }
        if (req === 0)
          throw new errors_1.PulseCoreError("core: request could not start");
        return new CoreRequest(this, this.core, req, this.generation);
      }
      /**
       * The reply to an HTTP fault the host's own parser detected (the core never saw the request):
       * an interrupted body (408), malformed framing (400) or an oversized head (431). The core chooses
       * the bytes, so every host answers alike; a trap yields the host's own 500.
       */
      fault(kind) {
        if (this.poisoned)
          return internalError();
        try {
          const ok = this.core.pulse_engine_fault(this.handle, FAULT_CODES[kind]) >>> 0;
          const ptr = this.core.pulse_check_output_ptr() >>> 0;
          const len = this.core.pulse_check_output_len() >>> 0;
          const memory = memoryOf(this.core);
          if (ok !== 1 || ptr + len > memory.length)
            return internalError();
          return decodeReply(memory, ptr, ptr + len, this.copyOut) ?? internalError();
        } catch {
          this.poison(this.generation);
          return internalError();
        }
      }
      /** The request event of `fault`'s reply (native/core/src/event.rs); `undefined` when the core has none. */
      faultEvent(kind) {
        if (this.poisoned)
          return void 0;
        try {
          if (this.core.pulse_engine_fault_event(this.handle, FAULT_CODES[kind]) >>> 0 !== 1)
            return void 0;
          const ptr = this.core.pulse_check_output_ptr() >>> 0;
          const len = this.core.pulse_check_output_len() >>> 0;
          const memory = memoryOf(this.core);
          return ptr + len > memory.length ? void 0 : decodeEvent(memory, ptr, ptr + len);
        } catch {
          this.poison(this.generation);
          return void 0;
        }
      }
      /**
       * The Fastly resources this engine's configuration names (`pulse_engine_service_names`): backends,
       * secret stores and log endpoints, each with the option that names it. The Native build checks them
       * against the project's fastly.toml. Throws `PulseCoreError` (fixed message) on a trap.
       */
      serviceNames() {
        if (this.poisoned)
          throw new errors_1.PulseCoreError("core: service names are unavailable");
        try {
          if (this.core.pulse_engine_service_names(this.handle) >>> 0 !== 1)
            throw new errors_1.PulseCoreError("core: service names are unavailable");
          const ptr = this.core.pulse_check_output_ptr() >>> 0;
          const len = this.core.pulse_check_output_len() >>> 0;
          return JSON.parse(decoder.decode(memoryOf(this.core).subarray(ptr, ptr + len)));
        } catch (e) {
          if (e instanceof errors_1.PulseCoreError)
            throw e;
          this.poison(this.generation);
          throw new errors_1.PulseCoreError("core: service names are unavailable");
        }
      }
      /**
       * Runs `op`'s input or output codec in the core (`pulse_engine_check`), so every host agrees on
       * what is valid. `value` must be plain JSON; `undefined` means absent. A valid value comes back in
       * canonical decoded form (`undefined` for a tool without input: no params); a rejection carries
       * the core's path and fixed message, never the value. Throws `PulseCoreError` (fixed message) for
       * an unknown operation, an engine without tools, or a trap (which poisons the instance; `request`
       * rebuilds it).
       */
      check(op, direction, value) {
        if (this.poisoned)
          throw new errors_1.PulseCoreError("core: check is unavailable");
        const core = this.core;
        let json;
        try {
          json = value === void 0 ? "" : JSON.stringify(value);
        } catch {
          throw new errors_1.PulseCoreError("core: check needs plain JSON");
        }
        const opBytes = encoder.encode(op);
        const jsonBytes = encoder.encode(json);
        let status;
        let out;
        try {
          status = withInput(core, opBytes, (opPtr, opLen) => withInput(core, jsonBytes, (ptr2, len2) => core.pulse_engine_check(this.handle, opPtr, opLen, direction === "input" ? 0 : 1, ptr2, len2))) >>> 0;
          const ptr = core.pulse_check_output_ptr() >>> 0;
          const len = core.pulse_check_output_len() >>> 0;
          out = new Uint8Array(core.memory.buffer, ptr, len).slice();
        } catch {
          this.poison(this.generation);
          throw new errors_1.PulseCoreError("core: check failed");
        }
        let parsed;
        try {
          parsed = out.length === 0 ? void 0 : JSON.parse(decoder.decode(out));
        } catch {
          throw new errors_1.PulseCoreError("core: check failed");
        }
        if (status === 0)
          return { ok: true, value: parsed };
        const r = parsed;
        if (status === 1 && typeof r?.path === "string" && typeof r.message === "string")
          return { ok: false, path: r.path, message: r.message };
        throw new errors_1.PulseCoreError("core: check failed");
      }
      /** @internal Whether instance `generation` may still be called. */
      usable(generation) {
        return !this.poisoned && generation === this.generation;
      }
    };
    exports2.Engine = Engine;
    function corpusIndexer(source) {
      let core;
      return (definitionJson) => {
        core ??= (0, loader_1.instantiateCore)(source);
        const c = core;
        let status;
        let out;
        try {
          status = withInput(c, encoder.encode(definitionJson), (ptr2, len2) => c.pulse_corpus_index(ptr2, len2)) >>> 0;
          const ptr = c.pulse_check_output_ptr() >>> 0;
          const len = c.pulse_check_output_len() >>> 0;
          out = memoryOf(c).slice(ptr, ptr + len);
        } catch {
          core = void 0;
          throw new errors_1.PulseCoreError("core: the corpus index could not be built");
        }
        if (status !== 1)
          return { ok: false, message: decoder.decode(out.subarray(0, 1024)) };
        return { ok: true, index: JSON.parse(decoder.decode(out)) };
      };
    }
    var memoryView = new Uint8Array(0);
    var memoryCore;
    var memoryDetaches = false;
    function memoryOf(core) {
      if (memoryCore !== core) {
        const wasm = globalThis.WebAssembly;
        memoryCore = core;
        memoryDetaches = wasm !== void 0 && core.memory instanceof wasm.Memory;
        memoryView = new Uint8Array(core.memory.buffer);
      } else if (memoryDetaches ? memoryView.length === 0 : memoryView.buffer !== core.memory.buffer) {
        memoryView = new Uint8Array(core.memory.buffer);
      }
      return memoryView;
    }
    var DIRECT_TEXT_MAX = 8192;
    function allocate(core, len) {
      const ptr = core.pulse_alloc(len) >>> 0;
      if (ptr === 0 && len > 0)
        throw new errors_1.PulseCoreError("core: out of memory");
      return ptr;
    }
    function place(core, bytes) {
      const ptr = allocate(core, bytes.length);
      memoryOf(core).set(bytes, ptr);
      return ptr;
    }
    function placeText(core, text) {
      const len = text.length;
      const ptr = allocate(core, len);
      const memory = memoryOf(core);
      const { read, written } = encoder.encodeInto(text, memory.subarray(ptr, ptr + len));
      if (read !== len || written !== len)
        memory.set(latin1Bytes(text), ptr);
      return ptr;
    }
    function withInput(core, bytes, call) {
      const ptr = place(core, bytes);
      const result = call(ptr, bytes.length);
      core.pulse_dealloc(ptr, bytes.length);
      return result;
    }
    var CoreRequest = class {
      engine;
      core;
      req;
      generation;
      freed = false;
      /** @internal */
      constructor(engine, core, req, generation) {
        this.engine = engine;
        this.core = core;
        this.req = req;
        this.generation = generation;
      }
      /**
       * `headers` flat, `[name, value, name, value…]`, as Node's `rawHeaders` already is. `client` is the
       * client's address as the host knows it (the rate limits' key per address); the core ignores text
       * that is no IP address.
       */
      head(method, target, headers, now, client) {
        let text = typeof client === "string" && CLIENT_ADDRESS.test(client) ? `${method} ${target} ${client}\r
` : `${method} ${target}\r
`;
        for (let i = 0; i + 1 < headers.length; i += 2)
          text += `${headers[i]}: ${headers[i + 1]}\r
`;
        return this.step("head", now, 0, text);
      }
      body(chunk, now) {
        return chunk.length === 0 ? CONTINUE : this.step("body", now, 0, chunk);
      }
      end(now) {
        return this.step("end", now);
      }
      abort(now) {
        return this.step("abort", now);
      }
      tick(now) {
        return this.step("tick", now);
      }
      /** The pending HTTP effect's status and the body bytes read. */
      httpResponse(status, body, now) {
        return this.step("httpResponse", now, status, body);
      }
      httpFailure(reason, now) {
        return this.step("httpFailure", now, HTTP_FAILURES[reason]);
      }
      /** The pending introspection answered from the host's fresh entry under its `cacheKey`. */
      cached(value, now) {
        return this.step("cached", now, 0, value);
      }
      /** The pending rate effect's answer from the host's store. */
      rate(answer, now) {
        return this.step("rate", now, RATE_ANSWERS[answer.kind], void 0, answer.kind === "counted" ? answer.count : 0);
      }
      /** The entry to keep after an introspection the host performed, once; `undefined` when none. */
      cacheEntry() {
        if (!this.live())
          return void 0;
        try {
          if (this.core.pulse_request_cache_entry(this.req) >>> 0 !== 1)
            return void 0;
          const text = this.readOutput(utf8Text);
          if (text === void 0)
            return void 0;
          const e = JSON.parse(text);
          return typeof e.key === "string" && typeof e.ttlMs === "number" && typeof e.value === "string" ? e : void 0;
        } catch {
          this.engine.poison(this.generation);
          return void 0;
        }
      }
      /** The pending handler's output as JSON text. */
      handlerOutput(json, now) {
        return this.step("handlerOutput", now, 0, json.length <= DIRECT_TEXT_MAX ? json : encoder.encode(json));
      }
      handlerFailure(now) {
        return this.step("handlerFailure", now);
      }
      /** A progress report of the pending handler; the core bounds and frames it. */
      progress(progress, total, message, now) {
        if (!this.live())
          return void 0;
        if (typeof progress !== "number" || total !== void 0 && typeof total !== "number")
          return void 0;
        const core = this.core;
        try {
          const t = total === void 0 ? NaN : total;
          const code = (message === void 0 ? core.pulse_request_progress(this.req, progress, t, 0, 4294967295, now) : withInput(core, encoder.encode(String(message)), (p, l) => core.pulse_request_progress(this.req, progress, t, p, l, now))) >>> 0;
          if (code === 0)
            return void 0;
          const ptr = core.pulse_output_ptr(this.req) >>> 0;
          const len = core.pulse_output_len(this.req) >>> 0;
          const memory = memoryOf(core);
          if (ptr + len > memory.length)
            throw new errors_1.PulseCoreError("core: output out of bounds");
          if (code === 2)
            return { kind: "next", bytes: this.engine.copyOut(memory.subarray(ptr, ptr + len)) };
          const head = decodeReply(memory, ptr, ptr + len, this.engine.copyOut);
          return code === 1 && head !== void 0 ? { kind: "first", head } : void 0;
        } catch {
          this.engine.poison(this.generation);
          return void 0;
        }
      }
      /** Milliseconds the host may wait for its next event; 0 when already expired. */
      timeoutMs(now) {
        if (!this.engine.usable(this.generation))
          return 0;
        try {
          const ms = this.core.pulse_request_timeout_ms(this.req, now);
          return Number.isFinite(ms) && ms > 0 ? ms : 0;
        } catch {
          this.engine.poison(this.generation);
          return 0;
        }
      }
      /** The finished request's event (native/core/src/event.rs); `undefined` when the core has none. */
      event() {
        if (!this.live())
          return void 0;
        try {
          if (this.core.pulse_request_event(this.req) >>> 0 !== 1)
            return void 0;
          return this.readOutput(decodeEvent);
        } catch {
          this.engine.poison(this.generation);
          return void 0;
        }
      }
      /** Reads the request's output with `read`, `undefined` when it lies outside memory; throws as the core does. */
      readOutput(read) {
        const ptr = this.core.pulse_output_ptr(this.req) >>> 0;
        const len = this.core.pulse_output_len(this.req) >>> 0;
        const memory = memoryOf(this.core);
        return ptr + len > memory.length ? void 0 : read(memory, ptr, ptr + len);
      }
      free() {
        if (this.freed)
          return;
        this.freed = true;
        if (!this.engine.usable(this.generation))
          return;
        try {
          this.core.pulse_request_free(this.req);
        } catch {
          this.engine.poison(this.generation);
        }
      }
      /** Whether the core may still be called for this request. */
      live() {
        return !this.freed && this.engine.usable(this.generation);
      }
      /** The core trapped: its instance is discarded and the host answers its own 500. */
      broken() {
        this.engine.poison(this.generation);
        return internalError();
      }
      /**
       * One call into the core for this request, with `input` in its memory for the call's duration
       * (text: a head one byte per character, handler output as UTF-8 straight from the string), then
       * its answer. A trap poisons the instance. One method, no closure: every request makes several.
       */
      step(kind, now, arg = 0, input, arg2 = 0) {
        if (!this.live())
          return internalError();
        const core = this.core;
        const req = this.req;
        let code;
        try {
          let ptr = 0;
          let len = 0;
          let room = 0;
          if (typeof input === "string") {
            if (kind === "head") {
              ptr = placeText(core, input);
              len = room = input.length;
            } else {
              room = input.length * 3;
              ptr = allocate(core, room);
              len = encoder.encodeInto(input, memoryOf(core).subarray(ptr, ptr + room)).written;
            }
          } else if (input !== void 0) {
            ptr = place(core, input);
            len = room = input.length;
          }
          switch (kind) {
            case "head":
              code = core.pulse_request_head(req, ptr, len, now);
              break;
            case "body":
              code = core.pulse_request_body(req, ptr, len, now);
              break;
            case "end":
              code = core.pulse_request_end(req, now);
              break;
            case "abort":
              code = core.pulse_request_abort(req, now);
              break;
            case "tick":
              code = core.pulse_request_tick(req, now);
              break;
            case "httpResponse":
              code = core.pulse_request_http_response(req, arg, ptr, len, now);
              break;
            case "httpFailure":
              code = core.pulse_request_http_failure(req, arg, now);
              break;
            case "cached":
              code = core.pulse_request_cached(req, ptr, len, now);
              break;
            case "handlerOutput":
              code = core.pulse_request_handler_output(req, ptr, len, now);
              break;
            case "handlerFailure":
              code = core.pulse_request_handler_failure(req, now);
              break;
            case "rate":
              code = core.pulse_request_rate(req, arg, arg2, now);
              break;
          }
          if (input !== void 0)
            core.pulse_dealloc(ptr, room);
        } catch {
          return this.broken();
        }
        return this.settle(code);
      }
      /** What the core answered with `code`, read from its output before any other call into it. */
      settle(code) {
        switch (code >>> 0) {
          case 0:
            return CONTINUE;
          case 1:
          case 2:
            break;
          default:
            return internalError();
        }
        let memory;
        let ptr;
        let end;
        try {
          ptr = this.core.pulse_output_ptr(this.req) >>> 0;
          end = ptr + (this.core.pulse_output_len(this.req) >>> 0);
          memory = memoryOf(this.core);
        } catch {
          return this.broken();
        }
        if (end > memory.length)
          return this.broken();
        if (code >>> 0 === 1)
          return decodeReply(memory, ptr, end, this.engine.copyOut) ?? internalError();
        return performOf(memory, ptr, end) ?? internalError();
      }
    };
    exports2.CoreRequest = CoreRequest;
  }
});

// core/cancellation.js
var require_cancellation = __commonJS({
  "core/cancellation.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.Cancellation = exports2.CANCELLATION = void 0;
    exports2.CANCELLATION = /* @__PURE__ */ Symbol("pulse.cancellation");
    var Cancellation = class {
      aborted = false;
      reason = void 0;
      #listeners;
      #controller;
      addEventListener(_type, listener) {
        (this.#listeners ??= []).push(listener);
      }
      removeEventListener(_type, listener) {
        const i = this.#listeners?.indexOf(listener) ?? -1;
        if (i >= 0)
          this.#listeners.splice(i, 1);
      }
      cancel(reason) {
        if (this.aborted)
          return;
        this.aborted = true;
        this.reason = reason;
        this.#controller?.abort(reason);
        const listeners = this.#listeners;
        this.#listeners = void 0;
        for (const l of listeners ?? []) {
          try {
            l();
          } catch {
          }
        }
      }
      /** A real `AbortSignal` following this cancellation, made on first use; none without AbortController. */
      get signal() {
        if (this.#controller === void 0) {
          if (typeof AbortController !== "function")
            return void 0;
          this.#controller = new AbortController();
          if (this.aborted)
            this.#controller.abort(this.reason);
        }
        return this.#controller.signal;
      }
    };
    exports2.Cancellation = Cancellation;
  }
});

// core/thenable.js
var require_thenable = __commonJS({
  "core/thenable.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.isThenable = isThenable;
    function isThenable(v) {
      return (typeof v === "object" || typeof v === "function") && v !== null && typeof v.then === "function";
    }
  }
});

// core/generated/defaults.js
var require_defaults = __commonJS({
  "core/generated/defaults.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.HOST_STORE_DEFAULTS = exports2.MAX_URL_BYTES = exports2.BACKEND_URL = exports2.STATIC_RESULT_RULE = exports2.STATIC_RESULT_BYTES = exports2.STATIC_RESULT_DEPTH = exports2.NAME_RULE = exports2.NAME = exports2.MAX_ZERO_WAITS = exports2.RESPONSE_HEADROOM_BYTES = exports2.DEFAULT_LIMITS = void 0;
    exports2.DEFAULT_LIMITS = Object.freeze({
      requestBytes: 65536,
      responseBytes: 1048576,
      depth: 32,
      deadlineMs: 1e4
    });
    exports2.RESPONSE_HEADROOM_BYTES = 512;
    exports2.MAX_ZERO_WAITS = 2;
    exports2.NAME = /^[A-Za-z0-9_.-]{1,128}$/;
    exports2.NAME_RULE = "1-128 characters of A-Za-z0-9_.-";
    exports2.STATIC_RESULT_DEPTH = 32;
    exports2.STATIC_RESULT_BYTES = 65536;
    exports2.STATIC_RESULT_RULE = "plain JSON of at most 32 levels and 65536 bytes";
    exports2.BACKEND_URL = /^(?=[\x21-\x7e]{1,2048}$)(?:https:\x2f\x2f(?:[a-z0-9._-]+|\[[0-9a-f.]*:[0-9a-f:.]*\])|http:\x2f\x2f(?:localhost|\[::1\]|127(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}))(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?(?:\x2f[^?#@]*)?$/;
    exports2.MAX_URL_BYTES = 2048;
    exports2.HOST_STORE_DEFAULTS = Object.freeze({ maxEntries: 1e4, maxBytes: 8388608 });
  }
});

// telemetry/channel.js
var require_channel = __commonJS({
  "telemetry/channel.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.NO_TIMINGS = exports2.requestChannel = exports2.REQUEST_CHANNEL = void 0;
    exports2.publishRequest = publishRequest;
    exports2.REQUEST_CHANNEL = "pulse-mcp:request";
    var proc = globalThis.process;
    function open() {
      try {
        const dc = proc?.getBuiltinModule?.("node:diagnostics_channel");
        return dc?.channel(exports2.REQUEST_CHANNEL);
      } catch {
        return void 0;
      }
    }
    exports2.requestChannel = open();
    function detectTarget() {
      const g = globalThis;
      if (g.navigator?.userAgent === "Cloudflare-Workers")
        return "workerd-javascript";
      if (typeof g.fastly === "object" && g.fastly !== null)
        return "fastly-javascript";
      if (typeof proc?.versions?.bun === "string")
        return "bun-javascript";
      if (typeof proc?.versions?.deno === "string")
        return "deno-javascript";
      if (typeof proc?.versions?.node === "string")
        return "node-javascript";
      return "javascript";
    }
    var target;
    exports2.NO_TIMINGS = Object.freeze({ bodyMs: 0, effectsMs: 0, totalMs: 0 });
    var INTERNAL = Object.freeze({
      method: null,
      requestId: null,
      name: null,
      status: 500,
      code: -32603,
      isError: null,
      refusal: "internal",
      bytesIn: 0,
      bytesOut: 0,
      protocolVersion: null,
      sub: null,
      traceparent: null,
      tracestate: null
    });
    function publishRequest(channel, core, t) {
      const c = core ?? INTERNAL;
      const event = {
        method: c.method,
        requestId: c.requestId,
        name: c.name,
        status: c.status,
        code: c.code,
        isError: c.isError,
        refusal: c.refusal,
        bytesIn: c.bytesIn,
        bytesOut: c.bytesOut,
        protocolVersion: c.protocolVersion,
        sub: c.sub,
        traceparent: c.traceparent,
        tracestate: c.tracestate,
        bodyMs: t.bodyMs,
        effectsMs: t.effectsMs,
        coreMs: Math.max(0, t.totalMs - t.bodyMs - t.effectsMs),
        totalMs: t.totalMs,
        target: target ??= detectTarget()
      };
      channel.publish(Object.freeze(event));
    }
  }
});

// core/introspection-store.js
var require_introspection_store = __commonJS({
  "core/introspection-store.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.IntrospectionStore = void 0;
    var encoder = new TextEncoder();
    var IntrospectionStore = class {
      maxEntries;
      maxBytes;
      now;
      /** Insertion order is recency: a hit moves its entry to the end; eviction takes the first. */
      entries = /* @__PURE__ */ new Map();
      used = 0;
      constructor(maxEntries, maxBytes, now) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.now = now;
      }
      /** The fresh value under `key`, or `undefined` (an expired one is dropped). */
      get(key) {
        const kept = this.entries.get(key);
        if (kept === void 0)
          return void 0;
        this.entries.delete(key);
        if (this.now() >= kept.until) {
          this.used -= kept.bytes;
          return void 0;
        }
        this.entries.set(key, kept);
        return kept.value;
      }
      /** Keeps `entry` for its ttl, evicting the least recently used until both bounds hold. */
      set(entry) {
        const bytes = entry.key.length + encoder.encode(entry.value).length;
        const old = this.entries.get(entry.key);
        if (old !== void 0) {
          this.entries.delete(entry.key);
          this.used -= old.bytes;
        }
        if (bytes > this.maxBytes || entry.ttlMs <= 0)
          return;
        this.entries.set(entry.key, { value: entry.value, until: this.now() + entry.ttlMs, bytes });
        this.used += bytes;
        for (const [key, kept] of this.entries) {
          if (this.entries.size <= this.maxEntries && this.used <= this.maxBytes)
            break;
          this.entries.delete(key);
          this.used -= kept.bytes;
        }
      }
      /** Entries and bytes held now (expired ones count until looked up or evicted). */
      get size() {
        return { entries: this.entries.size, bytes: this.used };
      }
    };
    exports2.IntrospectionStore = IntrospectionStore;
  }
});

// core/rate-store.js
var require_rate_store = __commonJS({
  "core/rate-store.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.RateStore = void 0;
    var SECONDS = 60;
    var COUNTER_BYTES = SECONDS * 4 + 320;
    var BOXED_BYTES = 160;
    var KEY_BYTES = 3;
    var COUNTED_NOTHING = Object.freeze({ kind: "counted", count: 0 });
    var BOXED = Object.freeze({ kind: "boxed" });
    var PENALIZED = Object.freeze({ kind: "penalized" });
    var RateStore = class {
      maxEntries;
      maxBytes;
      /**
       * Tables by name, so that an entry is found without building a key. A name's table stays when
       * empty: the names are the configuration's (a rate counter and a penalty box).
       */
      counters = /* @__PURE__ */ new Map();
      boxes = /* @__PURE__ */ new Map();
      oldest;
      newest;
      held = 0;
      boxed = 0;
      used = 0;
      constructor(maxEntries, maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
      }
      /** Performs `effect` at once, at `at` (the host clock's milliseconds); an in-process store always answers. */
      perform(effect, at) {
        if (effect.op === "penalize") {
          const table = tableOf(this.boxes, effect.penaltyBox);
          const bytes = KEY_BYTES + effect.penaltyBox.length + effect.entry.length + BOXED_BYTES;
          const boxed = { kind: "boxed", table, entry: effect.entry, bytes, older: void 0, newer: void 0, until: at + effect.ttlS * 1e3 };
          this.put(boxed);
          return PENALIZED;
        }
        if (this.boxed !== 0) {
          const boxed = this.boxes.get(effect.penaltyBox)?.get(effect.entry);
          if (boxed !== void 0) {
            if (at < boxed.until) {
              this.touch(boxed);
              return BOXED;
            }
            this.remove(boxed);
          }
        }
        if (!effect.charge)
          return COUNTED_NOTHING;
        const second = Math.floor(at / 1e3);
        let counter = this.counters.get(effect.rateCounter)?.get(effect.entry);
        if (counter !== void 0) {
          this.touch(counter);
          advance(counter, second);
        } else {
          const table = tableOf(this.counters, effect.rateCounter);
          const bytes = KEY_BYTES + effect.rateCounter.length + effect.entry.length + COUNTER_BYTES;
          counter = { kind: "counter", table, entry: effect.entry, bytes, older: void 0, newer: void 0, buckets: new Uint32Array(SECONDS), second };
          this.put(counter);
        }
        const { buckets } = counter;
        let slot = second % SECONDS;
        buckets[slot]++;
        let count = 0;
        for (let n = Math.min(effect.windowS, SECONDS); n > 0; n--) {
          count += buckets[slot];
          slot = slot === 0 ? SECONDS - 1 : slot - 1;
        }
        return { kind: "counted", count };
      }
      /** Entries and bytes held now (expired ones count until used or evicted). */
      get size() {
        return { entries: this.held, bytes: this.used };
      }
      /** Keeps `e` in its table (in place of what it held there), evicting the least recently used until both bounds hold. */
      put(e) {
        const old = e.table.get(e.entry);
        if (old !== void 0)
          this.remove(old);
        e.table.set(e.entry, e);
        this.link(e);
        this.held++;
        if (e.kind === "boxed")
          this.boxed++;
        this.used += e.bytes;
        while (this.oldest !== void 0 && (this.held > this.maxEntries || this.used > this.maxBytes))
          this.remove(this.oldest);
      }
      remove(e) {
        this.unlink(e);
        e.table.delete(e.entry);
        this.held--;
        if (e.kind === "boxed")
          this.boxed--;
        this.used -= e.bytes;
      }
      /** A use: `e` becomes the newest. */
      touch(e) {
        if (e === this.newest)
          return;
        this.unlink(e);
        this.link(e);
      }
      link(e) {
        e.older = this.newest;
        e.newer = void 0;
        if (this.newest === void 0)
          this.oldest = e;
        else
          this.newest.newer = e;
        this.newest = e;
      }
      unlink(e) {
        if (e.older === void 0)
          this.oldest = e.newer;
        else
          e.older.newer = e.newer;
        if (e.newer === void 0)
          this.newest = e.older;
        else
          e.newer.older = e.older;
        e.older = void 0;
        e.newer = void 0;
      }
    };
    exports2.RateStore = RateStore;
    function tableOf(tables, name) {
      let table = tables.get(name);
      if (table === void 0)
        tables.set(name, table = /* @__PURE__ */ new Map());
      return table;
    }
    function advance(c, second) {
      if (second <= c.second)
        return;
      if (second - c.second >= SECONDS)
        c.buckets.fill(0);
      else
        for (let s = c.second + 1; s <= second; s++)
          c.buckets[s % SECONDS] = 0;
      c.second = second;
    }
  }
});

// core/driver.js
var require_driver = __commonJS({
  "core/driver.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.createHostCore = createHostCore;
    exports2.drive = drive;
    exports2.fetchExchange = fetchExchange;
    var cancellation_1 = require_cancellation();
    var thenable_1 = require_thenable();
    var defaults_1 = require_defaults();
    var channel_1 = require_channel();
    var introspection_store_1 = require_introspection_store();
    var rate_store_1 = require_rate_store();
    var engine_1 = require_engine();
    var perf = globalThis.performance;
    var runtimeNow = perf !== void 0 ? () => perf.now() : () => Date.now();
    var TIMEOUT = /* @__PURE__ */ Symbol("timeout");
    var GONE = /* @__PURE__ */ Symbol("gone");
    var MAX_TIMER_MS = 2147483647;
    async function race(work, ms, departure) {
      let timer;
      const expiry = new Promise((resolve) => {
        timer = setTimeout(() => resolve(TIMEOUT), Math.min(Math.max(0, Math.ceil(ms)), MAX_TIMER_MS));
      });
      const contenders = [work, expiry];
      if (departure !== void 0)
        contenders.push(departure.promise.then(() => GONE));
      try {
        return await Promise.race(contenders);
      } finally {
        clearTimeout(timer);
      }
    }
    function createHostCore(resolved, io = {}) {
      const engine = engine_1.Engine.create(resolved.configJson, resolved.core, io.copyOut);
      const now = io.now ?? runtimeNow;
      const bounds = resolved.introspectionCache;
      const cache = bounds === void 0 ? {} : { cache: new introspection_store_1.IntrospectionStore(bounds.maxEntries, bounds.maxBytes, now) };
      const limits = resolved.rateLimitStore;
      const rates = limits === void 0 ? {} : { rates: new rate_store_1.RateStore(limits.maxEntries, limits.maxBytes) };
      return Object.freeze({ engine, requestBytes: resolved.requestBytes, handlers: resolved.handlers, exchange: io.exchange ?? fetchExchange, now, ...cache, ...rates });
    }
    async function drive(host, head, body, departure, sink) {
      const now = host.now ?? runtimeNow;
      const channel = channel_1.requestChannel?.hasSubscribers === true ? channel_1.requestChannel : void 0;
      const started = channel === void 0 ? 0 : now();
      let bodyMs = 0;
      let effectsMs = 0;
      const req = host.engine.request(now());
      const stream = { started: false };
      let bodyDone = body === null;
      let endSent = false;
      let pending;
      let zeroWaits = 0;
      let yielded = false;
      try {
        let action = req.head(head.method, head.target, head.headers, now(), head.client);
        for (; ; ) {
          if (action.kind === "respond") {
            if (!bodyDone)
              body?.cancel();
            if (channel !== void 0)
              (0, channel_1.publishRequest)(channel, req.event(), { bodyMs, effectsMs, totalMs: now() - started });
            return { response: action, streamed: stream.started, bodyComplete: bodyDone, gone: departure?.gone === true };
          }
          if (action.kind === "perform") {
            if (action.effect.kind === "rate") {
              const at = now();
              action = host.rates === void 0 ? (0, engine_1.internalError)() : req.rate(host.rates.perform(action.effect, at), at);
              if (channel !== void 0)
                effectsMs += now() - at;
              continue;
            }
            const left = req.timeoutMs(now());
            if (left === 0) {
              action = unfinished(req, now, "deadline");
              continue;
            }
            const effectStarted = channel === void 0 ? 0 : now();
            const next = action.effect.kind === "http" ? performHttp(req, now, action.effect, departure, host.exchange, host.cache) : performHandler(req, now, left, action.effect, departure, host.handlers, progressOf(req, now, action.effect, sink, stream));
            action = next instanceof Promise ? await next : next;
            if (channel !== void 0)
              effectsMs += now() - effectStarted;
            continue;
          }
          if (departure?.gone === true) {
            action = finalOf(req.abort(now()));
            continue;
          }
          if (bodyDone) {
            if (endSent)
              action = (0, engine_1.internalError)();
            else {
              endSent = true;
              action = req.end(now());
            }
            continue;
          }
          let event = pending === void 0 ? body.poll?.() : void 0;
          if (event === void 0 && pending === void 0 && !yielded && body.poll !== void 0) {
            yielded = true;
            await void 0;
            continue;
          }
          let wait = 0;
          if (event === void 0) {
            pending ??= body.read();
            wait = req.timeoutMs(now());
            const waitStarted = channel === void 0 ? 0 : now();
            event = wait > 0 ? await race(pending, wait, departure) : TIMEOUT;
            if (channel !== void 0)
              bodyMs += now() - waitStarted;
          }
          if (event === TIMEOUT) {
            action = req.tick(now());
            zeroWaits = wait > 0 ? 0 : zeroWaits + 1;
            if (action.kind === "continue" && zeroWaits > defaults_1.MAX_ZERO_WAITS)
              action = (0, engine_1.internalError)();
            continue;
          }
          if (event === GONE) {
            action = finalOf(req.abort(now()));
            continue;
          }
          pending = void 0;
          if (event.done === true) {
            bodyDone = true;
          } else if (event.done === false) {
            action = req.body(event.chunk, now());
          } else {
            bodyDone = true;
            action = finalOf(req.abort(now()));
          }
        }
      } finally {
        req.free();
      }
    }
    function finalOf(action) {
      return action.kind === "respond" ? action : (0, engine_1.internalError)();
    }
    async function awaitEffect(req, now, work, budgetMs, departure, cancellation) {
      const started = now();
      let ended;
      for (; ; ) {
        const at = now();
        const coreLeft = req.timeoutMs(at);
        const ownLeft = budgetMs - (at - started);
        if (coreLeft === 0)
          ended = "deadline";
        else if (ownLeft <= 0)
          ended = "timedOut";
        else {
          const event = await race(work, Math.min(coreLeft, ownLeft), departure);
          if (event === TIMEOUT)
            continue;
          if (event !== GONE)
            return { done: event };
          ended = "gone";
        }
        cancellation.cancel();
        work.catch(() => void 0);
        return ended;
      }
    }
    function unfinished(req, now, how) {
      const at = now();
      return how === "gone" ? finalOf(req.abort(at)) : finalOf(req.tick(at));
    }
    function performHttp(req, now, effect, departure, exchange, cache) {
      if (effect.cacheKey === void 0 || cache === void 0)
        return exchangeHttp(req, now, effect, departure, exchange);
      const kept = cache.get(effect.cacheKey);
      if (kept !== void 0)
        return req.cached(kept, now());
      return exchangeHttp(req, now, effect, departure, exchange).then((action) => {
        const entry = req.cacheEntry();
        if (entry !== void 0)
          cache.set(entry);
        return action;
      });
    }
    async function exchangeHttp(req, now, effect, departure, exchange) {
      const cancellation = new cancellation_1.Cancellation();
      const work = exchange(effect, cancellation);
      const outcome = await awaitEffect(req, now, work, effect.timeoutMs, departure, cancellation);
      if (outcome === "deadline" || outcome === "gone")
        return unfinished(req, now, outcome);
      if (outcome === "timedOut")
        return req.httpFailure("timedOut", now());
      const r = outcome.done;
      return r === "unreachable" ? req.httpFailure("unreachable", now()) : req.httpResponse(r.status, r.body, now());
    }
    async function fetchExchange(effect, cancellation) {
      const signal = cancellation.signal;
      const fetchFn = globalThis.fetch;
      if (fetchFn === void 0)
        return "unreachable";
      let response;
      try {
        const init = { method: effect.method, headers: effect.headers, redirect: "manual" };
        if (effect.body !== void 0)
          init.body = effect.body;
        if (signal !== void 0)
          init.signal = signal;
        response = await fetchFn(effect.url, init);
      } catch {
        return "unreachable";
      }
      const body = await readAtMost(response, effect.maxBytes);
      return body === void 0 ? "unreachable" : { status: response.status, body };
    }
    async function readAtMost(response, maxBytes) {
      if (response.body === null)
        return new Uint8Array(0);
      const reader = response.body.getReader();
      const parts = [];
      let total = 0;
      try {
        while (total <= maxBytes) {
          const { done, value } = await reader.read();
          if (done)
            break;
          total += value.byteLength;
          parts.push(value);
        }
      } catch {
        return void 0;
      }
      if (total > maxBytes)
        reader.cancel().catch(() => void 0);
      const out = new Uint8Array(total);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.byteLength;
      }
      return out;
    }
    function progressOf(req, now, effect, sink, stream) {
      if (effect.progress !== true || sink === void 0)
        return void 0;
      return (progress, total, message) => {
        const event = req.progress(progress, total, message, now());
        if (event === void 0)
          return;
        try {
          if (event.kind === "first") {
            stream.started = true;
            sink.start(event.head);
          } else
            sink.write(event.bytes);
        } catch {
        }
      };
    }
    function performHandler(req, now, left, effect, departure, runner, progress) {
      if (runner === void 0)
        return req.handlerFailure(now());
      const cancellation = new cancellation_1.Cancellation();
      const work = runHandler(effect, runner, Math.min(effect.timeoutMs, left), cancellation, progress);
      if (typeof work === "object")
        return awaitHandler(req, now, work, effect.timeoutMs, departure, cancellation);
      return work === void 0 ? req.handlerFailure(now()) : req.handlerOutput(work, now());
    }
    async function awaitHandler(req, now, work, budgetMs, departure, cancellation) {
      const outcome = await awaitEffect(req, now, work, budgetMs, departure, cancellation);
      if (outcome === "deadline" || outcome === "gone")
        return unfinished(req, now, outcome);
      if (outcome === "timedOut" || outcome.done === void 0)
        return req.handlerFailure(now());
      return req.handlerOutput(outcome.done, now());
    }
    var RunContext = class {
      timeoutMs;
      [cancellation_1.CANCELLATION];
      constructor(timeoutMs, cancellation, inputResponses, progress) {
        this.timeoutMs = timeoutMs;
        this[cancellation_1.CANCELLATION] = cancellation;
        if (inputResponses !== void 0)
          this.inputResponses = inputResponses;
        if (progress !== void 0)
          this.progress = progress;
      }
      get signal() {
        return this[cancellation_1.CANCELLATION].signal;
      }
    };
    function runHandler(effect, runner, timeoutMs, cancellation, progress) {
      let outcome;
      try {
        outcome = runner.run(effect.op, effect.input, new RunContext(timeoutMs, cancellation, effect.inputResponses, progress));
      } catch {
        return void 0;
      }
      return (0, thenable_1.isThenable)(outcome) ? Promise.resolve(outcome).then(outputText, () => void 0) : outputText(outcome);
    }
    function outputText(outcome) {
      if (outcome?.ok !== true)
        return void 0;
      try {
        const text = JSON.stringify(outcome.output === void 0 ? null : outcome.output);
        return typeof text === "string" ? text : void 0;
      } catch {
        return void 0;
      }
    }
  }
});

// limits.js
var require_limits = __commonJS({
  "limits.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.RESPONSE_HEADROOM_BYTES = exports2.DEFAULT_LIMITS = void 0;
    var defaults_1 = require_defaults();
    Object.defineProperty(exports2, "DEFAULT_LIMITS", { enumerable: true, get: function() {
      return defaults_1.DEFAULT_LIMITS;
    } });
    Object.defineProperty(exports2, "RESPONSE_HEADROOM_BYTES", { enumerable: true, get: function() {
      return defaults_1.RESPONSE_HEADROOM_BYTES;
    } });
  }
});

// compiler/types.js
var require_types = __commonJS({
  "compiler/types.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.TARGET_RENAMES = exports2.TARGETS = exports2.SCHEMA_REGISTRY_FORMAT_VERSION = exports2.CATALOG_FORMAT_VERSION = exports2.MANIFEST_FORMAT_VERSION = void 0;
    exports2.eligibleTargets = eligibleTargets;
    exports2.targetRefusal = targetRefusal;
    exports2.MANIFEST_FORMAT_VERSION = 1;
    exports2.CATALOG_FORMAT_VERSION = 2;
    exports2.SCHEMA_REGISTRY_FORMAT_VERSION = 1;
    exports2.TARGETS = Object.freeze(["fastly-native", "node-native", "node-javascript", "fastly-javascript", "workerd-javascript"]);
    function eligibleTargets(handler) {
      return handler === "javascript" ? JAVASCRIPT_ELIGIBLE : NATIVE_ELIGIBLE;
    }
    var NATIVE_ELIGIBLE = Object.freeze([...exports2.TARGETS].sort());
    var JAVASCRIPT_ELIGIBLE = Object.freeze(exports2.TARGETS.filter((t) => t.endsWith("-javascript")).sort());
    var RENAMED_TARGETS = Object.freeze({ node: "node-javascript", workerd: "workerd-javascript" });
    function targetRefusal(where, value) {
      if (exports2.TARGETS.includes(value))
        return void 0;
      if (typeof value === "string" && Object.prototype.hasOwnProperty.call(RENAMED_TARGETS, value))
        return `${where}: "${value}" is now "${RENAMED_TARGETS[value]}"`;
      return `${where}: must be one of ${exports2.TARGETS.join(", ")}`;
    }
    exports2.TARGET_RENAMES = Object.entries(RENAMED_TARGETS).map(([old, now]) => `"${old}" is now "${now}"`).join(", ");
  }
});

// router/rules.js
var require_rules = __commonJS({
  "router/rules.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.MAX_BEARER = exports2.MAX_URL_BYTES = exports2.BACKEND_METHODS = exports2.BACKEND_TIMEOUT_MS = exports2.DEFAULT_CORPUS_MAX_BYTES = exports2.DEFAULT_TOP_K = exports2.TOP_K = exports2.HANDLER_BYTES = exports2.DEFAULT_BUDGETS = exports2.MAX_OPERATIONS = exports2.STATIC_RESULT_RULE = exports2.STATIC_RESULT_DEPTH = exports2.STATIC_RESULT_BYTES = exports2.NAME_RULE = exports2.HINT_KEYS = exports2.U32_MAX = exports2.I32_MAX = exports2.I32_MIN = void 0;
    exports2.isInt = isInt;
    exports2.isName = isName;
    exports2.inRange = inRange;
    exports2.isBackendUrl = isBackendUrl;
    exports2.backendBase = backendBase;
    exports2.isBackendPath = isBackendPath;
    exports2.backendCallUrl = backendCallUrl;
    exports2.isBearerToken = isBearerToken;
    var defaults_1 = require_defaults();
    var limits_1 = require_limits();
    exports2.I32_MIN = -2147483648;
    exports2.I32_MAX = 2147483647;
    exports2.U32_MAX = 4294967295;
    function isInt(v, lo, hi) {
      return typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi;
    }
    exports2.HINT_KEYS = Object.freeze(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);
    var defaults_2 = require_defaults();
    Object.defineProperty(exports2, "NAME_RULE", { enumerable: true, get: function() {
      return defaults_2.NAME_RULE;
    } });
    function isName(v) {
      return typeof v === "string" && defaults_1.NAME.test(v);
    }
    var defaults_3 = require_defaults();
    Object.defineProperty(exports2, "STATIC_RESULT_BYTES", { enumerable: true, get: function() {
      return defaults_3.STATIC_RESULT_BYTES;
    } });
    Object.defineProperty(exports2, "STATIC_RESULT_DEPTH", { enumerable: true, get: function() {
      return defaults_3.STATIC_RESULT_DEPTH;
    } });
    Object.defineProperty(exports2, "STATIC_RESULT_RULE", { enumerable: true, get: function() {
      return defaults_3.STATIC_RESULT_RULE;
    } });
    exports2.MAX_OPERATIONS = 128;
    exports2.DEFAULT_BUDGETS = Object.freeze({
      deadlineMs: 5e3,
      fetches: 8,
      fetchBytes: 1048576,
      calls: 16
    });
    function inRange(v, r) {
      return typeof v === "number" && Number.isInteger(v) && v >= r.min && v <= r.max;
    }
    exports2.HANDLER_BYTES = Object.freeze({ min: 1, max: limits_1.DEFAULT_LIMITS.responseBytes });
    exports2.TOP_K = Object.freeze({ min: 1, max: 64 });
    exports2.DEFAULT_TOP_K = 10;
    exports2.DEFAULT_CORPUS_MAX_BYTES = 16384;
    exports2.BACKEND_TIMEOUT_MS = Object.freeze({ min: 1, max: exports2.DEFAULT_BUDGETS.deadlineMs });
    exports2.BACKEND_METHODS = Object.freeze(["GET", "POST", "PUT", "PATCH", "DELETE"]);
    var defaults_4 = require_defaults();
    Object.defineProperty(exports2, "MAX_URL_BYTES", { enumerable: true, get: function() {
      return defaults_4.MAX_URL_BYTES;
    } });
    function isBackendUrl(u) {
      return defaults_1.BACKEND_URL.test(u);
    }
    function backendBase(raw) {
      if (typeof raw !== "string" || raw.length > defaults_1.MAX_URL_BYTES)
        return void 0;
      let href;
      try {
        href = new URL(raw).href;
      } catch {
        return void 0;
      }
      return isBackendUrl(href) ? href : void 0;
    }
    function isBackendPath(p) {
      return typeof p === "string" && /^\/(?!\/)[A-Za-z0-9\-._~/]{0,1023}$/.test(p) && !p.split("/").some((s) => s === "." || s === "..");
    }
    function backendCallUrl(base, path) {
      const url = new URL(base);
      return url.origin + url.pathname.replace(/\/+$/, "") + path;
    }
    exports2.MAX_BEARER = 4096;
    function isBearerToken(v) {
      return typeof v === "string" && v.length <= exports2.MAX_BEARER && /^[A-Za-z0-9\-._~+/]+=*$/.test(v);
    }
  }
});

// compiler/errors.js
var require_errors2 = __commonJS({
  "compiler/errors.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.ManifestError = void 0;
    exports2.fail = fail;
    var errors_1 = require_errors();
    var ManifestError = class extends errors_1.PulseError {
      code = "PULSE_ERR_MANIFEST";
      constructor(message) {
        super(message);
        this.name = "ManifestError";
      }
    };
    exports2.ManifestError = ManifestError;
    function fail(message) {
      throw new ManifestError(message);
    }
  }
});

// compiler/projection.js
var require_projection = __commonJS({
  "compiler/projection.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.MAX_PROJECTION_LEVELS = exports2.MAX_PROJECTION_NODES = exports2.SCHEMA_DIALECT = void 0;
    exports2.compileProgram = compileProgram;
    exports2.project = project;
    exports2.noInputSchema = noInputSchema;
    var rules_1 = require_rules();
    var errors_1 = require_errors2();
    exports2.SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";
    exports2.MAX_PROJECTION_NODES = 4096;
    exports2.MAX_PROJECTION_LEVELS = 24;
    function bounds(where, lo, hi) {
      if (lo !== void 0 && hi !== void 0 && lo > hi)
        (0, errors_1.fail)(`${where}: min is greater than max`);
    }
    function compileProgram(root, where) {
      const nodes = [];
      const walk = (d, level) => {
        if (level > exports2.MAX_PROJECTION_LEVELS)
          (0, errors_1.fail)(`${where}: codec nesting exceeds ${exports2.MAX_PROJECTION_LEVELS} levels`);
        if (nodes.length >= exports2.MAX_PROJECTION_NODES)
          (0, errors_1.fail)(`${where}: codec exceeds ${exports2.MAX_PROJECTION_NODES} nodes`);
        let node;
        switch (d.kind) {
          case "string": {
            const min = d.minLength ?? 0;
            const max = d.maxLength ?? null;
            if (!(0, rules_1.isInt)(min, 0, rules_1.U32_MAX) || max !== null && !(0, rules_1.isInt)(max, 0, rules_1.U32_MAX))
              (0, errors_1.fail)(`${where}: invalid string length bounds`);
            bounds(where, min, max ?? void 0);
            node = ["string", min, max];
            break;
          }
          case "boolean":
            node = ["boolean"];
            break;
          case "i32":
          case "u32": {
            const [lo, hi] = d.kind === "i32" ? [rules_1.I32_MIN, rules_1.I32_MAX] : [0, rules_1.U32_MAX];
            const min = d.min ?? lo;
            const max = d.max ?? hi;
            if (!(0, rules_1.isInt)(min, lo, hi) || !(0, rules_1.isInt)(max, lo, hi))
              (0, errors_1.fail)(`${where}: invalid ${d.kind} bounds`);
            bounds(where, min, max);
            node = [d.kind, min, max];
            break;
          }
          case "number": {
            const min = d.min ?? null;
            const max = d.max ?? null;
            for (const v of [min, max])
              if (v !== null && !Number.isFinite(v))
                (0, errors_1.fail)(`${where}: number bounds must be finite`);
            bounds(where, min ?? void 0, max ?? void 0);
            node = ["number", min, max];
            break;
          }
          case "enum":
            if (!Array.isArray(d.values) || d.values.length === 0 || !d.values.every((v) => typeof v === "string"))
              (0, errors_1.fail)(`${where}: enum values must be a non-empty list of strings`);
            if (new Set(d.values).size !== d.values.length)
              (0, errors_1.fail)(`${where}: enum values must be unique`);
            node = ["enum", [...d.values]];
            break;
          case "array": {
            if (!(0, rules_1.isInt)(d.maxItems, 0, rules_1.U32_MAX))
              (0, errors_1.fail)(`${where}: array maxItems must be a non-negative integer`);
            const items = walk(d.items, level + 1);
            node = ["array", items, d.maxItems];
            break;
          }
          case "object": {
            const names = Object.keys(d.fields);
            const fields = [];
            for (const name of names) {
              const f = d.fields[name];
              fields.push([name, walk(f.codec, level + 1), f.optional === true ? 1 : 0]);
            }
            const extra = d.strict === true ? 2 : d.open === true ? 1 : 0;
            const at = (list) => list.map((n) => {
              const i = names.indexOf(n);
              return i >= 0 ? i : (0, errors_1.fail)(`${where}: a presence rule names "${n}", which the object does not declare`);
            });
            const rules = [];
            if (d.requireAnyOf !== void 0)
              rules.push(["anyOf", d.requireAnyOf.map(at)]);
            if (d.when !== void 0)
              rules.push(["if", at([d.when.field])[0], d.when.equals, at(d.when.then), at(d.when.else)]);
            node = rules.length > 0 ? ["object", extra, fields, rules] : ["object", extra, fields];
            break;
          }
          case "ref":
            return walk(d.inner, level);
          case "nullable":
            node = ["nullable", walk(d.inner, level + 1)];
            break;
          case "json":
            if (!(0, rules_1.isInt)(d.maxBytes, 1, rules_1.U32_MAX) || !(0, rules_1.isInt)(d.maxDepth, 0, 64))
              (0, errors_1.fail)(`${where}: invalid json bounds`);
            node = ["json", d.maxBytes, d.maxDepth];
            break;
          case "scalarRecord":
            (0, errors_1.fail)(`${where}: scalarRecord has no JSON Schema projection; tools cannot use it`);
          default:
            (0, errors_1.fail)(`${where}: unknown codec kind`);
        }
        nodes.push(node);
        return nodes.length - 1;
      };
      walk(root, 1);
      return nodes;
    }
    function project(root, direction, where) {
      let nodes = 0;
      let levels = 0;
      const below = (count, depth) => {
        nodes += count;
        if (depth > levels)
          levels = depth;
        if (depth > exports2.MAX_PROJECTION_LEVELS)
          (0, errors_1.fail)(`${where}: schema projection exceeds ${exports2.MAX_PROJECTION_LEVELS} levels`);
        if (nodes > exports2.MAX_PROJECTION_NODES)
          (0, errors_1.fail)(`${where}: schema projection exceeds ${exports2.MAX_PROJECTION_NODES} nodes`);
      };
      const defs = /* @__PURE__ */ new Map();
      const walk = (d, level) => {
        if (d.kind === "ref")
          return definition(d, level);
        nodes++;
        if (level > levels)
          levels = level;
        if (level > exports2.MAX_PROJECTION_LEVELS)
          (0, errors_1.fail)(`${where}: schema projection exceeds ${exports2.MAX_PROJECTION_LEVELS} levels`);
        if (nodes > exports2.MAX_PROJECTION_NODES)
          (0, errors_1.fail)(`${where}: schema projection exceeds ${exports2.MAX_PROJECTION_NODES} nodes`);
        switch (d.kind) {
          case "string": {
            const s = { type: "string" };
            if (d.minLength !== void 0 && d.minLength > 0)
              s.minLength = d.minLength;
            if (d.maxLength !== void 0)
              s.maxLength = d.maxLength;
            return s;
          }
          case "boolean":
            return { type: "boolean" };
          case "i32":
            return { type: "integer", minimum: d.min ?? rules_1.I32_MIN, maximum: d.max ?? rules_1.I32_MAX };
          case "u32":
            return { type: "integer", minimum: d.min ?? 0, maximum: d.max ?? rules_1.U32_MAX };
          case "number": {
            const s = { type: "number" };
            if (d.min !== void 0)
              s.minimum = d.min;
            if (d.max !== void 0)
              s.maximum = d.max;
            return s;
          }
          case "enum":
            return { type: "string", enum: [...d.values] };
          case "array":
            return { type: "array", items: walk(d.items, level + 1), maxItems: d.maxItems };
          case "object": {
            const properties = {};
            const required = [];
            for (const name of Object.keys(d.fields)) {
              const f = d.fields[name];
              Object.defineProperty(properties, name, { value: walk(f.codec, level + 1), enumerable: true, writable: true, configurable: true });
              if (f.optional !== true)
                required.push(name);
            }
            const s = { type: "object", properties };
            if (required.length > 0)
              s.required = required;
            if (d.strict === true || direction === "output" && d.open !== true)
              s.additionalProperties = false;
            else if (direction === "input" && d.open === true)
              s.additionalProperties = true;
            if (d.requireAnyOf !== void 0) {
              below(1 + d.requireAnyOf.length, level + 2);
              s.allOf = [{ anyOf: d.requireAnyOf.map((g) => ({ required: [...g] })) }];
            }
            if (d.when !== void 0) {
              const w = d.when;
              below(2 + (w.then.length > 0 ? 1 : 0) + (w.else.length > 0 ? 1 : 0), level + 2);
              const cond = {};
              Object.defineProperty(cond, w.field, { value: { const: w.equals }, enumerable: true, writable: true, configurable: true });
              s.if = { properties: cond, required: [w.field] };
              if (w.then.length > 0)
                s.then = { required: [...w.then] };
              if (w.else.length > 0)
                s.else = { required: [...w.else] };
            }
            return s;
          }
          case "nullable":
            nodes++;
            if (level + 1 > levels)
              levels = level + 1;
            return { anyOf: [walk(d.inner, level + 1), { type: "null" }] };
          case "json":
            return {};
          case "scalarRecord":
            return (0, errors_1.fail)(`${where}: scalarRecord has no JSON Schema projection; tools cannot use it`);
          default:
            return (0, errors_1.fail)(`${where}: unknown codec kind`);
        }
      };
      const definition = (d, level) => {
        const schema = walk(d.inner, level);
        const known = defs.get(d.name);
        if (known === void 0) {
          for (const [name, other] of defs) {
            if (d.anchor !== void 0 && other.anchor === d.anchor)
              (0, errors_1.fail)(`${where}: $defs "${name}" and "${d.name}" share the anchor "${d.anchor}"`);
          }
          defs.set(d.name, { inner: d.inner, anchor: d.anchor, schema });
        } else if (known.inner !== d.inner || known.anchor !== d.anchor) {
          (0, errors_1.fail)(`${where}: $defs name "${d.name}" is given to two different codecs`);
        }
        return { $ref: `#/$defs/${d.name}` };
      };
      const body = walk(root, 1);
      if (defs.size === 0)
        return { schema: { $schema: exports2.SCHEMA_DIALECT, ...body }, nodes, levels };
      const $defs = {};
      for (const [name, def] of [...defs].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
        const value = def.anchor === void 0 ? def.schema : { $anchor: def.anchor, ...def.schema };
        Object.defineProperty($defs, name, { value, enumerable: true, writable: true, configurable: true });
      }
      return { schema: { $schema: exports2.SCHEMA_DIALECT, $defs, ...body }, nodes, levels };
    }
    function noInputSchema() {
      return { schema: { $schema: exports2.SCHEMA_DIALECT, type: "object", additionalProperties: false }, nodes: 1, levels: 1 };
    }
  }
});

// router/errors.js
var require_errors3 = __commonJS({
  "router/errors.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.PulseRouterError = void 0;
    exports2.fail = fail;
    exports2.isPulseRouterError = isPulseRouterError;
    var errors_1 = require_errors();
    var rules_1 = require_rules();
    var MESSAGES = {
      // declarations
      routerId: `Router id must be ${rules_1.NAME_RULE}`,
      routerOptions: "Router options must be a plain object with known keys only",
      operationName: `Operation name must be ${rules_1.NAME_RULE}`,
      operationDuplicate: "Operation name is already declared on this router",
      operationOptions: "Operation options must be a plain object with known keys only",
      operationTitle: "Operation title (at most 256 characters) and description (at most 4096) must be strings",
      operationHints: "Operation hints must be an object of the four boolean MCP hints",
      operationInput: "Operation input must be an object codec",
      operationOutput: "Operation output must be a codec",
      operationContent: "Operation content must be a boolean, and a content operation declares no output",
      operationInputs: "Operation inputs must be a list of rounds, each an object of input requests",
      operationHeaderParams: "Operation headerParams must map input fields to header names (strings)",
      operationAuthenticated: "Operation authenticated must be a boolean",
      operationCount: "A router declares at most 128 operations",
      handler: "Operation handler must be a function or a handler from handlers.*",
      handlerCorpus: "Corpus handler names a corpus the router does not declare",
      handlerBackend: "Backend handler names a backend the router does not declare",
      handlerStatic: `Static handler result must be ${rules_1.STATIC_RESULT_RULE}`,
      handlerCorpusOptions: `Corpus handler options are invalid (corpus, action search|read|list, topK ${rules_1.TOP_K.min}-${rules_1.TOP_K.max}, maxBytes ${rules_1.HANDLER_BYTES.min}-${rules_1.HANDLER_BYTES.max})`,
      handlerBackendOptions: `Backend handler options are invalid (backend, method, absolute path, maxBytes ${rules_1.HANDLER_BYTES.min}-${rules_1.HANDLER_BYTES.max}, timeoutMs ${rules_1.BACKEND_TIMEOUT_MS.min}-${rules_1.BACKEND_TIMEOUT_MS.max} and within the router deadline)`,
      backends: "Backends must map names to https URLs or loopback http URLs without credentials, query or fragment",
      config: "Config must map names to strings (at most 4096 characters), finite numbers or booleans",
      budgets: "Budgets must be positive integers no greater than the defaults",
      corpora: "Corpora must be bounded versioned entry lists with unique ids",
      // codecs
      codecBounds: "Codec bounds must be integers with min <= max inside the kind's range",
      codecLength: "String lengths must be non-negative integers with minLength <= maxLength",
      codecNumber: "Number bounds must be finite with min <= max",
      codecEnum: "Enum values must be 1-256 unique strings of at most 128 characters",
      codecArray: "Array codecs need an item codec and maxItems, a positive integer up to 65536",
      codecObject: "Object codecs need fields mapping 1-128 character names to codecs (at most 256 fields)",
      codecInner: "Expected a codec built by codec.*",
      codecJson: "JSON codecs need maxBytes 1-1048576 and maxDepth 1-32",
      codecRecord: "Scalar records need maxKeys 1-1024 and maxBytes 1-1048576",
      codecOptions: "Codec options must be a plain object with known keys only",
      codecStrict: "An object codec is either open or strict, not both",
      codecRequireAnyOf: "requireAnyOf needs 1-16 groups, each a non-empty list of distinct declared field names",
      codecWhen: "when needs a declared field, equals (a string, finite number or boolean), and then/else lists of distinct declared field names, not both empty",
      codecRef: "codec.ref needs a name of 1-64 characters of A-Za-z0-9_.-, a codec built by codec.*, and optionally an anchor of 1-64 characters matching [A-Za-z_][A-Za-z0-9_.-]*",
      // binding
      frozen: "The router is bound; no operations can be declared after binding",
      nativeIneligible: "The router has JavaScript handlers, which run in JavaScript hosts only; the Native target admits static, corpus and backend handlers only",
      notRouter: "Expected a router declared with new EntityRouter(id)",
      handleContext: "handle(ctx) needs the Pulse request context with ctx.request",
      toolSourceOptions: "Tool source options are invalid (secrets, kv, log, core)",
      jsonRpcOptions: "jsonRpc options are invalid (path, limits, secrets, kv, log, core)",
      // context
      fetchDenied: "Fetch destination is not a declared backend origin",
      fetchInvalid: "Fetch arguments are invalid",
      fetchFailed: "Fetch failed",
      fetchRedirect: "Fetch received a redirect; redirects are not followed",
      fetchUnavailable: "Fetch is not available in this host",
      budgetFetches: "Fetch budget exhausted",
      budgetBytes: "Fetch byte budget exhausted",
      budgetCalls: "Call budget exhausted",
      budgetDepth: "Call depth budget exhausted",
      deadline: "Deadline exceeded",
      closed: "The request context has ended",
      callUnknown: "Called operation is not declared on this router",
      callUnsupported: "Called operation kind cannot run from ctx.call",
      callFailed: "Called operation failed",
      secretName: `Secret name must be ${rules_1.NAME_RULE}`,
      secretFailed: "Secret lookup failed",
      kvKey: "KV keys must be 1-512 characters",
      kvValue: "KV values must be strings of at most 65536 characters",
      kvFull: "KV store is full",
      kvFailed: "KV operation failed"
    };
    var PulseRouterError = class extends errors_1.PulseError {
      code;
      constructor(code, message) {
        super(MESSAGES[message]);
        this.name = "PulseRouterError";
        this.code = code;
      }
    };
    exports2.PulseRouterError = PulseRouterError;
    function fail(code, message) {
      throw new PulseRouterError(code, message);
    }
    function isPulseRouterError(e) {
      return e instanceof PulseRouterError;
    }
  }
});

// handlers/helpers.js
var require_helpers = __commonJS({
  "handlers/helpers.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.handlers = void 0;
    exports2.isNativeHandler = isNativeHandler;
    exports2.isPlainJson = isPlainJson;
    exports2.utf8Length = utf8Length;
    exports2.deepFreeze = deepFreeze;
    exports2.staticResultText = staticResultText;
    var errors_1 = require_errors3();
    var rules_1 = require_rules();
    var built = /* @__PURE__ */ new WeakSet();
    function isNativeHandler(v) {
      return typeof v === "object" && v !== null && built.has(v);
    }
    function finish(h) {
      const frozen = Object.freeze(h);
      built.add(frozen);
      return frozen;
    }
    function isPlain(v) {
      const p = Object.getPrototypeOf(v);
      return p === Object.prototype || p === null;
    }
    function isPlainJson(v, outer = 0) {
      if (v === null || typeof v === "string" || typeof v === "boolean")
        return true;
      if (typeof v === "number")
        return Number.isFinite(v);
      if (outer >= rules_1.STATIC_RESULT_DEPTH)
        return false;
      if (Array.isArray(v))
        return v.every((x) => isPlainJson(x, outer + 1));
      if (typeof v === "object" && isPlain(v)) {
        return Object.keys(v).every((k) => k !== "__proto__" && isPlainJson(v[k], outer + 1));
      }
      return false;
    }
    var encoder = new TextEncoder();
    function utf8Length(s) {
      return encoder.encode(s).length;
    }
    function deepFreeze(v) {
      if (typeof v === "object" && v !== null) {
        for (const x of Object.values(v))
          deepFreeze(x);
        Object.freeze(v);
      }
      return v;
    }
    function staticResultText(value) {
      if (!isPlainJson(value))
        return void 0;
      const text = JSON.stringify(value);
      return utf8Length(text) > rules_1.STATIC_RESULT_BYTES ? void 0 : text;
    }
    function staticResult(value) {
      const text = staticResultText(value);
      if (text === void 0)
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerStatic");
      return finish({ kind: "static", result: deepFreeze(JSON.parse(text)) });
    }
    function onlyKeys(v, keys) {
      return typeof v === "object" && v !== null && !Array.isArray(v) && isPlain(v) && Object.keys(v).every((k) => keys.includes(k));
    }
    function corpus(opts) {
      if (!onlyKeys(opts, ["corpus", "action", "topK", "maxBytes"]))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpusOptions");
      const { corpus: name, action, topK, maxBytes } = opts;
      if (!(0, rules_1.isName)(name))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpusOptions");
      if (action !== "search" && action !== "read" && action !== "list")
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpusOptions");
      if (topK !== void 0 && !(0, rules_1.inRange)(topK, rules_1.TOP_K))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpusOptions");
      if (maxBytes !== void 0 && !(0, rules_1.inRange)(maxBytes, rules_1.HANDLER_BYTES))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpusOptions");
      const h = { kind: "corpus", corpus: name, action };
      if (topK !== void 0)
        h.topK = topK;
      if (maxBytes !== void 0)
        h.maxBytes = maxBytes;
      return finish(h);
    }
    function backend(opts) {
      if (!onlyKeys(opts, ["backend", "method", "path", "maxBytes", "timeoutMs"]))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      const { backend: name, method, path, maxBytes, timeoutMs } = opts;
      if (!(0, rules_1.isName)(name))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      if (!rules_1.BACKEND_METHODS.includes(method))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      if (!(0, rules_1.isBackendPath)(path))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      if (!(0, rules_1.inRange)(maxBytes, rules_1.HANDLER_BYTES) || !(0, rules_1.inRange)(timeoutMs, rules_1.BACKEND_TIMEOUT_MS))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      return finish({ kind: "backend", backend: name, method, path, maxBytes, timeoutMs });
    }
    exports2.handlers = Object.freeze({ static: staticResult, corpus, backend });
  }
});

// catalog/schema-program.js
var require_schema_program = __commonJS({
  "catalog/schema-program.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.lowerSchema = lowerSchema;
    var projection_1 = require_projection();
    var rules_1 = require_rules();
    var JSON_NODE = ["json", 1048576, 32];
    var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
    var pointer = (parts) => parts.map((p) => `/${p.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
    function lowerSchema(schema, direction, report) {
      const say = (at, reason) => report(at === "" ? "/" : at, reason);
      if (!isObject(schema))
        return say("/", "a schema must be an object");
      if (schema.$schema !== projection_1.SCHEMA_DIALECT)
        return say("/$schema", `must be ${projection_1.SCHEMA_DIALECT}`);
      const defs = schema.$defs;
      if (defs !== void 0 && !isObject(defs))
        return say("/$defs", "must be an object");
      const { $schema: _dialect, $defs: _defs, ...root } = schema;
      if (direction === "input" && Object.keys(root).length === 2 && root.type === "object" && root.additionalProperties === false) {
        return { program: null, headers: [], nodes: 1 };
      }
      const nodes = [];
      const headers = [];
      let count = 0;
      const expanding = /* @__PURE__ */ new Set();
      const walk = (s, level, at, headerAllowed = false) => {
        const where = pointer(at);
        if (level > projection_1.MAX_PROJECTION_LEVELS)
          say(where, `nesting exceeds ${projection_1.MAX_PROJECTION_LEVELS} levels`);
        if (!isObject(s))
          return say(where, "a schema must be an object");
        const keys = Object.keys(s);
        const only = (allowed) => {
          for (const k of keys)
            if (!allowed.includes(k) && !(headerAllowed && k === "x-mcp-header"))
              say(where, `unsupported keyword "${k}"`);
        };
        if (headerAllowed && s["x-mcp-header"] !== void 0) {
          if (typeof s["x-mcp-header"] !== "string")
            say(`${where}/x-mcp-header`, "must be a string");
          headers.push([at[at.length - 1], s["x-mcp-header"]]);
        }
        if ("$ref" in s) {
          only(["$ref"]);
          const ref = s.$ref;
          const name = typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice(8) : void 0;
          if (name === void 0 || !isObject(defs) || !Object.prototype.hasOwnProperty.call(defs, name))
            return say(where, "a $ref must name an entry of $defs");
          if (expanding.has(name))
            return say(where, `$defs "${name}" refers to itself`);
          const { $anchor: _anchor, ...inner } = defs[name];
          expanding.add(name);
          const index = walk(inner, level, ["$defs", name]);
          expanding.delete(name);
          return index;
        }
        count++;
        if (count > projection_1.MAX_PROJECTION_NODES)
          say(where, `the projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        let node;
        if ("anyOf" in s && !("type" in s)) {
          only(["anyOf"]);
          const alt = s.anyOf;
          if (!Array.isArray(alt) || alt.length !== 2 || !isObject(alt[1]) || Object.keys(alt[1]).join() !== "type" || alt[1].type !== "null")
            return say(where, 'anyOf is supported only as [schema, {"type":"null"}] (nullable)');
          count++;
          node = ["nullable", walk(alt[0], level + 1, [...at, "anyOf", "0"])];
        } else if (keys.length === 0 || headerAllowed && keys.length === 1 && keys[0] === "x-mcp-header") {
          node = JSON_NODE;
        } else {
          switch (s.type) {
            case "string":
              if ("enum" in s) {
                only(["type", "enum"]);
                const values = s.enum;
                if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string") || new Set(values).size !== values.length)
                  return say(where, "enum must be a non-empty list of unique strings");
                node = ["enum", [...values]];
              } else {
                only(["type", "minLength", "maxLength"]);
                const min = s.minLength ?? 0;
                const max = s.maxLength ?? null;
                if (!(0, rules_1.isInt)(min, 0, rules_1.U32_MAX) || max !== null && !(0, rules_1.isInt)(max, min, rules_1.U32_MAX))
                  return say(where, "string length bounds must be integers, minLength \u2264 maxLength");
                node = ["string", min, max];
              }
              break;
            case "boolean":
              only(["type"]);
              node = ["boolean"];
              break;
            case "integer": {
              only(["type", "minimum", "maximum"]);
              const { minimum: min, maximum: max } = s;
              if ((0, rules_1.isInt)(min, rules_1.I32_MIN, rules_1.I32_MAX) && (0, rules_1.isInt)(max, min, rules_1.I32_MAX))
                node = ["i32", min, max];
              else if ((0, rules_1.isInt)(min, 0, rules_1.U32_MAX) && (0, rules_1.isInt)(max, min, rules_1.U32_MAX))
                node = ["u32", min, max];
              else
                return say(where, "an integer needs minimum and maximum within the i32 or u32 range");
              break;
            }
            case "number": {
              only(["type", "minimum", "maximum"]);
              const min = s.minimum ?? null;
              const max = s.maximum ?? null;
              for (const v of [min, max])
                if (v !== null && (typeof v !== "number" || !Number.isFinite(v)))
                  return say(where, "number bounds must be finite numbers");
              if (min !== null && max !== null && min > max)
                return say(where, "minimum is greater than maximum");
              node = ["number", min, max];
              break;
            }
            case "array":
              only(["type", "items", "maxItems"]);
              if (!(0, rules_1.isInt)(s.maxItems, 0, rules_1.U32_MAX))
                return say(where, "an array needs an integer maxItems (its bound)");
              node = ["array", walk(s.items, level + 1, [...at, "items"]), s.maxItems];
              break;
            case "object":
              node = object(s, level, at, only);
              break;
            default:
              return say(where, s.type === void 0 ? "a schema needs a type" : `unsupported type ${JSON.stringify(s.type)}`);
          }
        }
        nodes.push(node);
        return nodes.length - 1;
      };
      const object = (s, level, at, only) => {
        const where = pointer(at);
        only(["type", "properties", "required", "additionalProperties", "allOf", "if", "then", "else"]);
        const properties = s.properties ?? {};
        if (!isObject(properties))
          return say(`${where}/properties`, "must be an object");
        const names = Object.keys(properties);
        const required = s.required ?? [];
        if (!Array.isArray(required) || !required.every((r) => typeof r === "string" && names.includes(r)) || new Set(required).size !== required.length)
          return say(`${where}/required`, "must list declared properties, once each");
        const ap = s.additionalProperties;
        if (ap !== void 0 && typeof ap !== "boolean")
          return say(`${where}/additionalProperties`, "only true or false is supported (records such as ScalarRecord are not)");
        const extra = direction === "input" ? ap === false ? 2 : ap === true ? 1 : 0 : ap === false ? 0 : 1;
        const fields = [];
        const topLevel = direction === "input" && at.length === 0;
        for (const name of names)
          fields.push([name, walk(properties[name], level + 1, [...at, "properties", name], topLevel), required.includes(name) ? 0 : 1]);
        const index = (list, place) => {
          if (!Array.isArray(list) || !list.every((n) => typeof n === "string" && names.includes(n)))
            return say(place, "must list declared properties");
          return list.map((n) => names.indexOf(n));
        };
        const rules = [];
        if (s.allOf !== void 0) {
          const groups = Array.isArray(s.allOf) && s.allOf.length === 1 && isObject(s.allOf[0]) && Object.keys(s.allOf[0]).join() === "anyOf" ? s.allOf[0].anyOf : void 0;
          if (!Array.isArray(groups) || groups.length === 0 || !groups.every((g) => isObject(g) && Object.keys(g).join() === "required"))
            return say(`${where}/allOf`, "is supported only as [{ anyOf: [{ required: [...] }, ...] }]");
          count += 1 + groups.length;
          rules.push(["anyOf", groups.map((g, i) => index(g.required, `${where}/allOf/0/anyOf/${i}/required`))]);
        }
        if (s.if !== void 0) {
          const cond = s.if;
          const props = isObject(cond) && Object.keys(cond).sort().join() === "properties,required" && isObject(cond.properties) ? Object.keys(cond.properties) : [];
          const field = props.length === 1 ? props[0] : void 0;
          const test = field === void 0 ? void 0 : cond.properties[field];
          const equals = isObject(test) && Object.keys(test).join() === "const" ? test.const : void 0;
          if (field === void 0 || !names.includes(field) || !Array.isArray(cond.required) || cond.required.join() !== field || !["string", "number", "boolean"].includes(typeof equals))
            return say(`${where}/if`, "is supported only as { properties: { field: { const } }, required: [field] }");
          const branch = (b, name) => {
            if (b === void 0)
              return [];
            if (!isObject(b) || Object.keys(b).join() !== "required")
              return say(`${where}/${name}`, "is supported only as { required: [...] }");
            count++;
            return index(b.required, `${where}/${name}/required`);
          };
          count += 2;
          rules.push(["if", names.indexOf(field), equals, branch(s.then, "then"), branch(s.else, "else")]);
        } else if (s.then !== void 0 || s.else !== void 0)
          return say(where, "then/else need an if");
        return rules.length > 0 ? ["object", extra, fields, rules] : ["object", extra, fields];
      };
      walk(root, 1, []);
      return { program: nodes, headers, nodes: count };
    }
  }
});

// catalog/artifacts.js
var require_artifacts = __commonJS({
  "catalog/artifacts.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.MAX_ARTIFACT_LEVELS = exports2.MAX_ARTIFACT_BYTES = exports2.CATALOG_BACKEND = void 0;
    exports2.catalogManifest = catalogManifest;
    var errors_1 = require_errors();
    var types_1 = require_types();
    var projection_1 = require_projection();
    var rules_1 = require_rules();
    var helpers_1 = require_helpers();
    var schema_program_1 = require_schema_program();
    exports2.CATALOG_BACKEND = "endpoint";
    exports2.MAX_ARTIFACT_BYTES = 1 << 20;
    exports2.MAX_ARTIFACT_LEVELS = 32;
    var KEYS = ["catalog", "schemas", "routerId", "target", "endpoint", "backendBearerToken", "backend"];
    var OPERATION_KEYS = ["name", "title", "description", "hints", "input", "output", "handler", "targets", "authenticated"];
    function fail(message) {
      throw new errors_1.PulseConfigError(message);
    }
    var isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
    function snapshot(value, where) {
      let text;
      const levels = (v, depth) => {
        if (depth > exports2.MAX_ARTIFACT_LEVELS)
          fail(`${where}: nests deeper than ${exports2.MAX_ARTIFACT_LEVELS} levels`);
        if (typeof v === "object" && v !== null)
          for (const x of Object.values(v))
            levels(x, depth + 1);
      };
      levels(value, 1);
      try {
        text = JSON.stringify(value);
      } catch {
        return fail(`${where}: must be plain JSON data`);
      }
      if (typeof text !== "string")
        return fail(`${where}: must be plain JSON data`);
      if ((0, helpers_1.utf8Length)(text) > exports2.MAX_ARTIFACT_BYTES)
        fail(`${where}: is larger than ${exports2.MAX_ARTIFACT_BYTES} bytes of JSON`);
      return JSON.parse(text);
    }
    function artifact(value, option, kind, version, routerId) {
      const a = snapshot(value, option);
      if (!isObject(a))
        return fail(`${option}: must be the parsed ${kind === "pulse.entities-catalog" ? "entities-catalog.json" : "schema-json-registry.json"}`);
      if (a.kind !== kind)
        fail(`${option}: kind must be "${kind}"`);
      if (kind === "pulse.entities-catalog" && a.formatVersion === 1)
        fail(`${option}: formatVersion 1 is an earlier release's, whose target names changed (${types_1.TARGET_RENAMES}); build the artifacts again with this release`);
      if (a.formatVersion !== version)
        fail(`${option}: unknown formatVersion ${JSON.stringify(a.formatVersion)}; this release reads ${version}`);
      if (a.routerId !== routerId)
        fail(`${option}: routerId ${JSON.stringify(a.routerId)} is not tools.routerId ${JSON.stringify(routerId)}`);
      if (typeof a.hash !== "string")
        fail(`${option}: needs its hash`);
      return a;
    }
    function catalogManifest(value, limits) {
      for (const k of Object.keys(value))
        if (!KEYS.includes(k))
          fail(`tools: unknown key ${JSON.stringify(k)}; catalog-backed tools take ${KEYS.join(", ")}`);
      const { routerId, target, endpoint, backendBearerToken } = value;
      if (!(0, rules_1.isName)(routerId))
        fail(`tools.routerId: must be ${rules_1.NAME_RULE}`);
      const refused = (0, types_1.targetRefusal)("tools.target", target);
      if (refused !== void 0)
        fail(refused);
      const url = (0, rules_1.backendBase)(endpoint);
      if (url === void 0)
        fail("tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment");
      let bearer;
      if (isObject(backendBearerToken))
        bearer = { ...backendBearerToken };
      else if (backendBearerToken === void 0 || (0, rules_1.isBearerToken)(backendBearerToken))
        bearer = backendBearerToken;
      else
        fail("tools.backendBearerToken: must be a bearer token (RFC 6750 characters: A-Z a-z 0-9 - . _ ~ + / then optional =, at most 4096)");
      const backend = value.backend ?? exports2.CATALOG_BACKEND;
      if (!(0, rules_1.isName)(backend))
        fail(`tools.backend: must be a Fastly backend name, ${rules_1.NAME_RULE}`);
      const catalog = artifact(value.catalog, "tools.catalog", "pulse.entities-catalog", types_1.CATALOG_FORMAT_VERSION, routerId);
      const registry = artifact(value.schemas, "tools.schemas", "pulse.schema-json-registry", types_1.SCHEMA_REGISTRY_FORMAT_VERSION, routerId);
      const schemas = /* @__PURE__ */ new Map();
      if (!Array.isArray(registry.schemas))
        fail("tools.schemas.schemas: must be a list");
      registry.schemas.forEach((entry, i) => {
        const where = `tools.schemas.schemas[${i}]`;
        if (!isObject(entry) || typeof entry.id !== "string" || !isObject(entry.schema))
          fail(`${where}: must be { id, schema }`);
        if (schemas.has(entry.id))
          fail(`${where}: duplicate schema id ${JSON.stringify(entry.id)}`);
        schemas.set(entry.id, entry.schema);
      });
      const ops = catalog.operations;
      if (!Array.isArray(ops))
        fail("tools.catalog.operations: must be a list");
      if (ops.length > rules_1.MAX_OPERATIONS)
        fail(`tools.catalog: router "${routerId}" has ${ops.length} operations; at most ${rules_1.MAX_OPERATIONS} tools are allowed`);
      const names = /* @__PURE__ */ new Set();
      const tools = [];
      const listed = [];
      ops.forEach((op, i) => {
        let where = `tools.catalog.operations[${i}]`;
        if (!isObject(op))
          fail(`${where}: must be an object`);
        if (!(0, rules_1.isName)(op.name))
          fail(`${where}: name must be ${rules_1.NAME_RULE}`);
        where = `${where} (${op.name})`;
        if (names.has(op.name))
          fail(`${where}: duplicate tool name`);
        names.add(op.name);
        for (const k of Object.keys(op))
          if (!OPERATION_KEYS.includes(k))
            fail(`${where}: unknown member ${JSON.stringify(k)}`);
        if (Array.isArray(op.targets))
          op.targets.forEach((t, j) => {
            const wrong = (0, types_1.targetRefusal)(`${where}.targets[${j}]`, t);
            if (wrong !== void 0)
              fail(wrong);
          });
        if (!Array.isArray(op.targets) || !op.targets.includes(target))
          fail(`${where}: not eligible for target ${target} (its targets: ${Array.isArray(op.targets) ? op.targets.join(", ") : "none"})`);
        for (const k of ["title", "description"])
          if (op[k] !== void 0 && typeof op[k] !== "string")
            fail(`${where}: ${k} must be a string`);
        if (op.authenticated !== void 0 && op.authenticated !== true)
          fail(`${where}: authenticated must be true when present`);
        if (op.authenticated === true && backendBearerToken === void 0)
          fail(`tools.backendBearerToken: required, because ${where} is authenticated (it needs the backend's service credential)`);
        const hints = {};
        if (op.hints !== void 0) {
          if (!isObject(op.hints))
            fail(`${where}: hints must be an object`);
          for (const [k, v] of Object.entries(op.hints)) {
            if (!rules_1.HINT_KEYS.includes(k) || typeof v !== "boolean")
              fail(`${where}: hints may hold only the four boolean MCP hints (${rules_1.HINT_KEYS.join(", ")})`);
            hints[k] = v;
          }
        }
        const lower = (id, direction) => {
          if (id === null && direction === "output")
            return { schema: void 0, lowered: { program: null, headers: [], nodes: 0 } };
          if (typeof id !== "string" || !schemas.has(id))
            fail(`${where}: ${direction} schema ${JSON.stringify(id)} is not in tools.schemas`);
          const schema = schemas.get(id);
          const say = (at, reason) => fail(`tools.schemas: schema ${JSON.stringify(id)} at ${at}: ${reason}`);
          return { schema, lowered: (0, schema_program_1.lowerSchema)(schema, direction, say) };
        };
        const input = lower(op.input, "input");
        const output = lower(op.output, "output");
        if (input.lowered.nodes + output.lowered.nodes > projection_1.MAX_PROJECTION_NODES)
          fail(`${where}: the schema projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        tools.push({
          name: op.name,
          input: input.lowered.program,
          output: output.lowered.program,
          ...input.lowered.headers.length > 0 ? { headers: input.lowered.headers } : {},
          handler: {
            kind: "rpc",
            backend,
            url,
            maxBytes: Math.min(limits.responseBytes, exports2.MAX_ARTIFACT_BYTES),
            ...bearer === void 0 ? {} : { bearer }
          }
        });
        const tool = { name: op.name };
        if (op.title !== void 0)
          tool.title = op.title;
        if (op.description !== void 0)
          tool.description = op.description;
        tool.inputSchema = input.schema;
        if (output.schema !== void 0)
          tool.outputSchema = output.schema;
        if (Object.keys(hints).length > 0)
          tool.annotations = hints;
        listed.push(tool);
      });
      return {
        formatVersion: types_1.MANIFEST_FORMAT_VERSION,
        routerId,
        catalogHash: catalog.hash,
        deadlineMs: limits.deadlineMs,
        list: JSON.stringify(listed),
        tools,
        corpora: {}
      };
    }
  }
});

// options.js
var require_options = __commonJS({
  "options.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.jsonText = jsonText;
    exports2.resolveOptions = resolveOptions;
    var errors_1 = require_errors();
    var limits_1 = require_limits();
    var defaults_1 = require_defaults();
    var artifacts_1 = require_artifacts();
    function storeBounds(o) {
      const n = (v, fallback) => typeof v === "number" ? v : fallback;
      return { maxEntries: n(o.maxEntries, defaults_1.HOST_STORE_DEFAULTS.maxEntries), maxBytes: n(o.maxBytes, defaults_1.HOST_STORE_DEFAULTS.maxBytes) };
    }
    var INTERNAL = /* @__PURE__ */ new Set(["profile"]);
    var SHOWN_KEY = /^[\x20-\x7e]{1,64}$/;
    var IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
    var LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    function fail(message) {
      throw new errors_1.PulseConfigError(message);
    }
    function isPlainObject(v) {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        return false;
      const proto = Object.getPrototypeOf(v);
      return proto === null || Object.getPrototypeOf(proto) === null;
    }
    function member(parent, key) {
      if (IDENTIFIER.test(key) && key.length <= 64)
        return parent === "" ? key : `${parent}.${key}`;
      const shown = SHOWN_KEY.test(key) ? JSON.stringify(key) : "an unnamed key";
      return `${parent === "" ? "options" : parent}[${shown}]`;
    }
    function jsonText(value, where, onFunction) {
      const ancestors = /* @__PURE__ */ new Set();
      const walk = (v, at) => {
        switch (typeof v) {
          case "string":
            if (LONE_SURROGATE.test(v))
              fail(`${at}: must be well-formed Unicode text, without lone surrogates`);
            return JSON.stringify(v);
          case "number":
            if (!Number.isFinite(v))
              fail(`${at}: must be a finite number`);
            return JSON.stringify(v);
          case "boolean":
            return v ? "true" : "false";
          case "object":
            break;
          case "function":
            return fail(`${at}: must be plain JSON data, not a function${onFunction === void 0 ? "" : `; ${onFunction}`}`);
          default:
            return fail(`${at}: must be plain JSON data, not ${typeof v === "bigint" ? "a BigInt" : typeof v === "undefined" ? "undefined" : "a symbol"}`);
        }
        if (v === null)
          return "null";
        if (ancestors.has(v))
          fail(`${at}: must be plain JSON data, not a cyclic structure`);
        ancestors.add(v);
        let text;
        if (Array.isArray(v)) {
          const items = [];
          for (let i = 0; i < v.length; i++)
            items.push(walk(v[i], `${at}[${i}]`));
          text = `[${items.join(",")}]`;
        } else {
          if (!isPlainObject(v))
            fail(`${at}: must be plain JSON data, not a class instance`);
          const members = [];
          for (const key of Object.keys(v)) {
            const where2 = member(at, key);
            if (LONE_SURROGATE.test(key))
              fail(`${where2}: the key must be well-formed Unicode text, without lone surrogates`);
            const item = v[key];
            if (item !== void 0)
              members.push(`${JSON.stringify(key)}:${walk(item, where2)}`);
          }
          text = `{${members.join(",")}}`;
        }
        ancestors.delete(v);
        return text;
      };
      try {
        return walk(value, where);
      } catch (e) {
        if (e instanceof RangeError)
          fail(`${where}: is nested too deeply or too large to be plain JSON data`);
        throw e;
      }
    }
    var USE_MCP = "serve a router and its handlers with mcp() from @pulse-compute/mcp/pulse";
    var STATIC_ONLY = { progress: "reported by handlers", contentBlocks: "returned by handlers" };
    function facadeTools(value, limits, target) {
      if (!isPlainObject(value) || !("catalog" in value) || "manifest" in value || "handlers" in value || "runHandler" in value) {
        fail(`tools: must be catalog artifacts { catalog, schemas, routerId, target, endpoint }; the host adapters run no application code: ${USE_MCP}`);
      }
      checkSecret(value.backendBearerToken, "tools.backendBearerToken", target, "token", "the token itself");
      const artifacts = JSON.parse(jsonText(value, "tools", USE_MCP));
      return { manifestJson: JSON.stringify((0, artifacts_1.catalogManifest)(artifacts, limits)), handlers: void 0 };
    }
    function staticTools(value) {
      const { manifest, handlers } = value;
      return { manifestJson: jsonText(manifest, "tools.manifest"), handlers };
    }
    function resolveCore(value) {
      const wa = globalThis.WebAssembly;
      const ok = value instanceof ArrayBuffer || ArrayBuffer.isView(value) || wa !== void 0 && value instanceof wa.Module;
      if (!ok)
        fail("core: must be a WebAssembly.Module of pulse_core.wasm or its bytes");
      if (value instanceof ArrayBuffer)
        return value.slice(0);
      if (ArrayBuffer.isView(value))
        return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
      return value;
    }
    function checkSecret(value, option, target, noun, rule) {
      if (target === "host" && isPlainObject(value))
        fail(`${option}: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes ${rule}`);
      if (target === "native" && typeof value === "string")
        fail(`${option}: a ${noun} given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }`);
    }
    function resolveOptions(options, target = "host", binding = "facade") {
      const o = options === void 0 ? {} : options;
      if (!isPlainObject(o))
        fail("options: must be a plain object");
      const onFunction = binding === "facade" ? USE_MCP : void 0;
      const members = [];
      let toolsValue;
      let core;
      const limits = { requestBytes: limits_1.DEFAULT_LIMITS.requestBytes, responseBytes: limits_1.DEFAULT_LIMITS.responseBytes, deadlineMs: limits_1.DEFAULT_LIMITS.deadlineMs };
      let introspectionCache;
      let rateLimitStore;
      for (const key of Object.keys(o)) {
        const value = o[key];
        if (value === void 0)
          continue;
        if (key === "tools")
          toolsValue = value;
        else if (key === "core")
          core = resolveCore(value);
        else {
          if (INTERNAL.has(key))
            fail(`options: unknown key ${JSON.stringify(key)}`);
          if (binding === "facade" && STATIC_ONLY[key] !== void 0) {
            fail(`${key}: ${STATIC_ONLY[key]}, which the host adapters do not run; it is an option of mcp() from @pulse-compute/mcp/pulse`);
          }
          if (key === "requestStateKey")
            checkSecret(value, "requestStateKey", target, "key", "the key itself (at least 32 bytes of text)");
          if (key === "authorization" && isPlainObject(value))
            checkSecret(value.clientSecret, "authorization.clientSecret", target, "secret", "the secret itself");
          const where = member("", key);
          if (LONE_SURROGATE.test(key))
            fail(`${where}: the key must be well-formed Unicode text, without lone surrogates`);
          const text = jsonText(value, where, onFunction);
          members.push(`${JSON.stringify(key)}:${text}`);
          if (key === "limits") {
            const given = JSON.parse(text);
            for (const k of ["requestBytes", "responseBytes", "deadlineMs"]) {
              const v = given?.[k];
              if (typeof v === "number")
                limits[k] = v;
            }
          }
          if (key === "authorization") {
            const cache = JSON.parse(text)?.cache;
            if (isPlainObject(cache))
              introspectionCache = storeBounds(cache);
          }
          if (key === "rateLimit") {
            const given = JSON.parse(text);
            if (isPlainObject(given))
              rateLimitStore = storeBounds(given);
          }
        }
      }
      const tools = toolsValue === void 0 ? void 0 : binding === "facade" ? facadeTools(toolsValue, limits, target) : staticTools(toolsValue);
      if (tools !== void 0)
        members.push(`"tools":${tools.manifestJson}`);
      const requestBytes = limits.requestBytes;
      return Object.freeze({
        configJson: `{${members.join(",")}}`,
        requestBytes,
        handlers: tools?.handlers,
        core,
        ...introspectionCache === void 0 ? {} : { introspectionCache },
        ...rateLimitStore === void 0 ? {} : { rateLimitStore }
      });
    }
  }
});

// adapter/fetch/handler.js
var require_handler = __commonJS({
  "adapter/fetch/handler.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.createMcpHttpHandler = createMcpHttpHandler;
    exports2.serveFetch = serveFetch;
    var engine_1 = require_engine();
    var driver_1 = require_driver();
    var options_1 = require_options();
    var DONE = { done: true };
    var FAILED = { error: true };
    function bodySource(stream) {
      let reader;
      return {
        async read() {
          try {
            reader ??= stream.getReader();
            const { done, value } = await reader.read();
            return done ? DONE : { done: false, chunk: value };
          } catch {
            return FAILED;
          }
        },
        cancel() {
          try {
            (reader ?? stream).cancel().catch(() => void 0);
          } catch {
          }
        }
      };
    }
    function departureOf(signal) {
      if (signal === void 0 || typeof signal.addEventListener !== "function")
        return { departure: void 0, detach() {
        } };
      let resolve;
      const state = { gone: signal.aborted, promise: new Promise((r) => resolve = r) };
      const onAbort = () => {
        state.gone = true;
        resolve();
      };
      if (state.gone)
        resolve();
      else
        signal.addEventListener("abort", onAbort, { once: true });
      return { departure: state, detach: () => signal.removeEventListener("abort", onAbort) };
    }
    function toResponse(action) {
      const headers = action.headers.slice();
      const body = action.body.length > 0 ? action.body : null;
      return new Response(body, { status: action.status, headers });
    }
    function createMcpHttpHandler(options) {
      const host = (0, driver_1.createHostCore)((0, options_1.resolveOptions)(options));
      return { fetch: (request, info) => serveFetch(host, request, info?.clientAddress) };
    }
    async function serveFetch(host, request, client) {
      const { departure, detach } = departureOf(request.signal);
      let controller;
      let started = () => void 0;
      const streamed = new Promise((resolve) => started = resolve);
      const sink = {
        start(head) {
          const body = new ReadableStream({
            start(c) {
              controller = c;
              c.enqueue(head.body);
            }
          });
          started(new Response(body, { status: head.status, headers: head.headers.slice() }));
        },
        write(bytes) {
          controller?.enqueue(bytes);
        }
      };
      const finished = (async () => {
        try {
          const url = new URL(request.url);
          const headers = [];
          request.headers.forEach((value, name) => headers.push(name, value));
          const body = request.body === null ? null : bodySource(request.body);
          const outcome = await (0, driver_1.drive)(host, { method: request.method, target: url.pathname + url.search, headers, client }, body, departure, sink);
          if (outcome.streamed) {
            controller?.enqueue(outcome.response.body);
            controller?.close();
            return streamed;
          }
          return toResponse(outcome.response);
        } catch {
          if (controller !== void 0) {
            controller.error(new Error("stream failed"));
            return streamed;
          }
          return toResponse((0, engine_1.internalError)());
        } finally {
          detach();
        }
      })();
      return Promise.race([streamed, finished]);
    }
  }
});

// protocol.js
var require_protocol = __commonJS({
  "protocol.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.PROTOCOL_VERSION = void 0;
    exports2.PROTOCOL_VERSION = "2026-07-28";
  }
});

// index.js
var require_index = __commonJS({
  "index.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.ManifestError = exports2.isPulseRouterError = exports2.PulseRouterError = exports2.PulseCoreError = exports2.PulseConfigError = exports2.PulseError = exports2.REQUEST_CHANNEL = exports2.DEFAULT_LIMITS = exports2.PROTOCOL_VERSION = exports2.createMcpHttpHandler = void 0;
    var handler_1 = require_handler();
    Object.defineProperty(exports2, "createMcpHttpHandler", { enumerable: true, get: function() {
      return handler_1.createMcpHttpHandler;
    } });
    var protocol_1 = require_protocol();
    Object.defineProperty(exports2, "PROTOCOL_VERSION", { enumerable: true, get: function() {
      return protocol_1.PROTOCOL_VERSION;
    } });
    var limits_1 = require_limits();
    Object.defineProperty(exports2, "DEFAULT_LIMITS", { enumerable: true, get: function() {
      return limits_1.DEFAULT_LIMITS;
    } });
    var channel_1 = require_channel();
    Object.defineProperty(exports2, "REQUEST_CHANNEL", { enumerable: true, get: function() {
      return channel_1.REQUEST_CHANNEL;
    } });
    var errors_1 = require_errors();
    Object.defineProperty(exports2, "PulseError", { enumerable: true, get: function() {
      return errors_1.PulseError;
    } });
    Object.defineProperty(exports2, "PulseConfigError", { enumerable: true, get: function() {
      return errors_1.PulseConfigError;
    } });
    Object.defineProperty(exports2, "PulseCoreError", { enumerable: true, get: function() {
      return errors_1.PulseCoreError;
    } });
    var errors_2 = require_errors3();
    Object.defineProperty(exports2, "PulseRouterError", { enumerable: true, get: function() {
      return errors_2.PulseRouterError;
    } });
    Object.defineProperty(exports2, "isPulseRouterError", { enumerable: true, get: function() {
      return errors_2.isPulseRouterError;
    } });
    var errors_3 = require_errors2();
    Object.defineProperty(exports2, "ManifestError", { enumerable: true, get: function() {
      return errors_3.ManifestError;
    } });
  }
});

// adapter/node/http-exchange.js
var require_http_exchange = __commonJS({
  "adapter/node/http-exchange.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.nodeExchange = nodeExchange;
    var MAX_TARGETS = 64;
    function nodeExchange(node) {
      const httpAgent = new node.http.Agent({ keepAlive: true });
      let httpsAgent;
      const targets = /* @__PURE__ */ new Map();
      const targetOf = (text) => {
        if (targets.has(text))
          return targets.get(text);
        let target;
        try {
          const url = new URL(text);
          if (url.protocol === "http:" || url.protocol === "https:") {
            const secure = url.protocol === "https:";
            target = { https: secure, options: { host: url.hostname.replace(/^\[|\]$/g, ""), port: url.port || (secure ? 443 : 80), path: url.pathname + url.search, agent: secure ? httpsAgent ??= new node.https.Agent({ keepAlive: true }) : httpAgent } };
          }
        } catch {
          target = void 0;
        }
        if (targets.size < MAX_TARGETS)
          targets.set(text, target);
        return target;
      };
      return (effect, cancellation) => new Promise((resolve) => {
        let settled = false;
        const settle = (r) => {
          if (settled)
            return;
          settled = true;
          resolve(r);
        };
        const target = targetOf(effect.url);
        if (target === void 0)
          return settle("unreachable");
        const headers = {};
        for (const [name, value] of effect.headers)
          headers[name] = value;
        if (effect.body !== void 0)
          headers["content-length"] = String(Buffer.byteLength(effect.body));
        const request = (target.https ? node.https : node.http).request({ ...target.options, method: effect.method, headers });
        cancellation.addEventListener("abort", () => {
          request.destroy();
          settle("unreachable");
        });
        request.on("error", () => settle("unreachable"));
        request.on("response", (response) => {
          const status = response.statusCode ?? 0;
          const parts = [];
          let total = 0;
          const done = () => settle({ status, body: Buffer.concat(parts, total) });
          response.on("data", (chunk) => {
            total += chunk.length;
            parts.push(chunk);
            if (total > effect.maxBytes) {
              done();
              response.destroy();
            }
          });
          response.on("end", done);
          response.on("error", () => settle("unreachable"));
          response.on("aborted", () => settle("unreachable"));
        });
        request.end(effect.body);
      });
    }
  }
});

// adapter/node/listener.js
var require_listener = __commonJS({
  "adapter/node/listener.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.nodeModules = nodeModules;
    exports2.createNodeListener = createNodeListener;
    exports2.nodeListener = nodeListener;
    var engine_1 = require_engine();
    var http_exchange_1 = require_http_exchange();
    var driver_1 = require_driver();
    var channel_1 = require_channel();
    function nodeModules(http, loadHttps) {
      let https;
      return {
        http,
        get https() {
          return https ??= loadHttps();
        }
      };
    }
    var LINGER_MS = 2e3;
    var LINGER_FACTOR = 4;
    var LINGER_CAP = 1024 * 1024;
    var FAULTS = {
      HPE_HEADER_OVERFLOW: "headTooLarge",
      // The connection ended (or timed out) before the body did: short of its Content-Length or of
      // its last chunk.
      HPE_INVALID_EOF_STATE: "bodyInterrupted",
      ERR_HTTP_REQUEST_TIMEOUT: "bodyInterrupted"
    };
    var DONE = { done: true };
    var FAILED = { error: true };
    var NodeBody = class {
      #req;
      #maxQueued;
      #queue = [];
      #queued = 0;
      /** The declared Content-Length, or -1 (chunked or absent). */
      #declared;
      #received = 0;
      #final;
      #waiter;
      #cancelled = false;
      constructor(req, maxQueued) {
        this.#req = req;
        this.#maxQueued = maxQueued;
        const length = req.headers["content-length"];
        this.#declared = length === void 0 || req.headers["transfer-encoding"] !== void 0 ? -1 : Number(length);
        req.on("data", (chunk) => {
          if (this.#cancelled)
            return;
          this.#received += chunk.length;
          if (this.#waiter !== void 0)
            this.#deliver({ done: false, chunk });
          else {
            this.#queue.push(chunk);
            this.#queued += chunk.length;
            if (this.#queued > this.#maxQueued)
              req.pause();
          }
        });
        req.on("end", () => {
          this.#final ??= DONE;
          this.#deliver(this.#final);
        });
        req.on("error", () => {
          this.#final = FAILED;
          this.#deliver(this.#final);
        });
      }
      #deliver(r) {
        const w = this.#waiter;
        this.#waiter = void 0;
        w?.(r);
      }
      poll() {
        const next = this.#queue.shift();
        if (next !== void 0) {
          this.#queued -= next.length;
          if (this.#queued <= this.#maxQueued && this.#final === void 0 && this.#req.isPaused())
            this.#req.resume();
          return { done: false, chunk: next };
        }
        return this.#final ?? (this.#received === this.#declared ? DONE : void 0);
      }
      read() {
        const ready = this.poll();
        if (ready !== void 0)
          return Promise.resolve(ready);
        return new Promise((resolve) => {
          this.#waiter = resolve;
          if (this.#req.isPaused())
            this.#req.resume();
        });
      }
      cancel() {
        this.#cancelled = true;
        this.#req.pause();
        this.#queue.length = 0;
      }
    };
    var NodeSink = class {
      #res;
      constructor(res) {
        this.#res = res;
      }
      start(head) {
        const flat = [];
        for (const [name, value] of head.headers)
          flat.push(name, value);
        this.#res.writeHead(head.status, flat);
        this.#res.write(head.body);
      }
      write(bytes) {
        this.#res.write(bytes);
      }
    };
    var NodeDeparture = class {
      gone = false;
      #promise;
      #resolve;
      constructor(res) {
        res.on("close", () => {
          if (res.writableFinished)
            return;
          this.gone = true;
          this.#resolve?.();
        });
      }
      get promise() {
        this.#promise ??= this.gone ? Promise.resolve() : new Promise((r) => this.#resolve = r);
        return this.#promise;
      }
    };
    function linger(socket, maxBytes) {
      socket.removeListener("finish", socket.destroy);
      if (!socket.writableEnded)
        socket.end();
      const start = socket.bytesRead ?? 0;
      const timer = setTimeout(() => socket.destroy(), LINGER_MS);
      timer.unref();
      socket.once("close", () => clearTimeout(timer));
      socket.on("data", () => {
        if ((socket.bytesRead ?? 0) - start > maxBytes)
          socket.destroy();
      });
      socket.resume();
    }
    function lingerBytes(requestBytes) {
      return Math.min(LINGER_FACTOR * requestBytes, LINGER_CAP);
    }
    function originForm(target) {
      if (target.startsWith("/") || !/^[a-z][a-z0-9+.-]*:\/\//i.test(target))
        return target;
      try {
        const url = new URL(target);
        return url.pathname + url.search;
      } catch {
        return target;
      }
    }
    function rawReply(action, reasons) {
      let head = `HTTP/1.1 ${action.status} ${reasons[action.status] ?? ""}\r
`;
      for (const [name, value] of action.headers)
        head += `${name}: ${value}\r
`;
      head += `content-length: ${action.body.length}\r
connection: close\r
\r
`;
      return Buffer.concat([Buffer.from(head, "latin1"), action.body]);
    }
    function send(req, res, action, close, lingerMax) {
      if (res.headersSent || res.destroyed)
        return;
      const flat = [];
      let hasLength = false;
      for (const [name, value] of action.headers) {
        if (name === "content-length")
          hasLength = true;
        flat.push(name, value);
      }
      if (!hasLength)
        flat.push("content-length", String(action.body.length));
      if (close) {
        req.pause();
        flat.push("connection", "close");
        res.on("finish", () => linger(req.socket, lingerMax));
      }
      res.writeHead(action.status, flat);
      res.end(action.body.length > 0 ? action.body : void 0);
    }
    function nodeIo(node) {
      return { exchange: (0, http_exchange_1.nodeExchange)(node), copyOut: (view) => Buffer.from(view) };
    }
    function createNodeListener(resolved, node) {
      return nodeListener((0, driver_1.createHostCore)(resolved, nodeIo(node)), node);
    }
    function nodeListener(host, node) {
      const lingerMax = lingerBytes(host.requestBytes);
      const attached = /* @__PURE__ */ new WeakSet();
      const clientError = (err, socket) => {
        if (err.code === "ECONNRESET" || !socket.writable) {
          socket.destroy();
          return;
        }
        const fault = FAULTS[err.code ?? ""] ?? "malformedFraming";
        const reply = rawReply(host.engine.fault(fault), node.http.STATUS_CODES);
        if (channel_1.requestChannel?.hasSubscribers === true)
          (0, channel_1.publishRequest)(channel_1.requestChannel, host.engine.faultEvent(fault), channel_1.NO_TIMINGS);
        const answer = () => {
          if (socket.writableEnded)
            return;
          socket.write(reply);
          linger(socket, lingerMax);
        };
        const inFlight = socket._httpMessage;
        if (inFlight != null && !inFlight.writableFinished && (inFlight.headersSent || inFlight.req.complete)) {
          inFlight.once("finish", answer);
        } else
          answer();
      };
      const handler = (req, res, info) => {
        const server = req.socket.server;
        if (server !== void 0 && !attached.has(server)) {
          attached.add(server);
          if (!server.listeners("clientError").includes(clientError))
            server.on("clientError", clientError);
        }
        const head = { method: req.method ?? "", target: originForm(req.url ?? ""), headers: req.rawHeaders, client: info?.clientAddress ?? req.socket.remoteAddress };
        (0, driver_1.drive)(host, head, new NodeBody(req, host.requestBytes), new NodeDeparture(res), new NodeSink(res)).then((outcome) => {
          if (outcome.streamed) {
            res.end(outcome.response.body);
            return;
          }
          const close = !req.complete && (outcome.response.close || !outcome.bodyComplete);
          if (!outcome.gone)
            send(req, res, outcome.response, close, lingerMax);
        }, () => res.headersSent ? res.destroy() : send(req, res, (0, engine_1.internalError)(), true, lingerMax));
      };
      return Object.assign(handler, { clientError });
    }
  }
});

// adapter/node/handler.js
var require_handler2 = __commonJS({
  "adapter/node/handler.js"(exports2) {
    "use strict";
    var __importDefault = exports2 && exports2.__importDefault || function(mod) {
      return mod && mod.__esModule ? mod : { "default": mod };
    };
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.createMcpNodeHandler = createMcpNodeHandler;
    var node_http_1 = __importDefault(require("node:http"));
    var options_1 = require_options();
    var listener_1 = require_listener();
    function createMcpNodeHandler(options) {
      return (0, listener_1.createNodeListener)((0, options_1.resolveOptions)(options), (0, listener_1.nodeModules)(node_http_1.default, () => process.getBuiltinModule("node:https")));
    }
  }
});

// node.js
var require_node = __commonJS({
  "node.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.ManifestError = exports2.isPulseRouterError = exports2.PulseRouterError = exports2.PulseCoreError = exports2.PulseConfigError = exports2.PulseError = exports2.REQUEST_CHANNEL = exports2.createMcpNodeHandler = void 0;
    var handler_1 = require_handler2();
    Object.defineProperty(exports2, "createMcpNodeHandler", { enumerable: true, get: function() {
      return handler_1.createMcpNodeHandler;
    } });
    var channel_1 = require_channel();
    Object.defineProperty(exports2, "REQUEST_CHANNEL", { enumerable: true, get: function() {
      return channel_1.REQUEST_CHANNEL;
    } });
    var errors_1 = require_errors();
    Object.defineProperty(exports2, "PulseError", { enumerable: true, get: function() {
      return errors_1.PulseError;
    } });
    Object.defineProperty(exports2, "PulseConfigError", { enumerable: true, get: function() {
      return errors_1.PulseConfigError;
    } });
    Object.defineProperty(exports2, "PulseCoreError", { enumerable: true, get: function() {
      return errors_1.PulseCoreError;
    } });
    var errors_2 = require_errors3();
    Object.defineProperty(exports2, "PulseRouterError", { enumerable: true, get: function() {
      return errors_2.PulseRouterError;
    } });
    Object.defineProperty(exports2, "isPulseRouterError", { enumerable: true, get: function() {
      return errors_2.isPulseRouterError;
    } });
    var errors_3 = require_errors2();
    Object.defineProperty(exports2, "ManifestError", { enumerable: true, get: function() {
      return errors_3.ManifestError;
    } });
  }
});

// router/codecs.js
var require_codecs = __commonJS({
  "router/codecs.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.codec = void 0;
    exports2.isCodec = isCodec;
    var errors_1 = require_errors3();
    var rules_1 = require_rules();
    var NAME_MAX = 128;
    var built = /* @__PURE__ */ new WeakSet();
    function finish(d) {
      const frozen = Object.freeze(d);
      built.add(frozen);
      return frozen;
    }
    function isCodec(value) {
      return typeof value === "object" && value !== null && built.has(value);
    }
    function isPlainObject(v) {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        return false;
      const proto = Object.getPrototypeOf(v);
      return proto === Object.prototype || proto === null;
    }
    function options(v, allowed) {
      if (v === void 0)
        return {};
      if (!isPlainObject(v))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecOptions");
      for (const k of Object.keys(v))
        if (!allowed.includes(k))
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecOptions");
      return v;
    }
    function intIn(v, lo, hi, msg) {
      if (v === void 0)
        return void 0;
      if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi)
        (0, errors_1.fail)("PULSE_ERR_CODEC", msg);
      return v;
    }
    function ordered(min, max, msg) {
      if (min !== void 0 && max !== void 0 && min > max)
        (0, errors_1.fail)("PULSE_ERR_CODEC", msg);
    }
    function withBounds(base, min, max, lo = "min", hi = "max") {
      const out = { ...base };
      if (min !== void 0)
        out[lo] = min;
      if (max !== void 0)
        out[hi] = max;
      return out;
    }
    function string(opts) {
      const o = options(opts, ["minLength", "maxLength"]);
      const min = intIn(o.minLength, 0, rules_1.U32_MAX, "codecLength");
      const max = intIn(o.maxLength, 0, rules_1.U32_MAX, "codecLength");
      ordered(min, max, "codecLength");
      return finish(withBounds({ kind: "string" }, min, max, "minLength", "maxLength"));
    }
    function boolean() {
      return finish({ kind: "boolean" });
    }
    function integer(kind, lo, hi, opts) {
      const o = options(opts, ["min", "max"]);
      const min = intIn(o.min, lo, hi, "codecBounds");
      const max = intIn(o.max, lo, hi, "codecBounds");
      ordered(min, max, "codecBounds");
      return finish(withBounds({ kind }, min, max));
    }
    function i32(opts) {
      return integer("i32", rules_1.I32_MIN, rules_1.I32_MAX, opts);
    }
    function u32(opts) {
      return integer("u32", 0, rules_1.U32_MAX, opts);
    }
    function number(opts) {
      const o = options(opts, ["min", "max"]);
      for (const v of [o.min, o.max]) {
        if (v !== void 0 && (typeof v !== "number" || !Number.isFinite(v)))
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecNumber");
      }
      const min = o.min;
      const max = o.max;
      ordered(min, max, "codecNumber");
      return finish(withBounds({ kind: "number" }, min, max));
    }
    function enumOf(values) {
      if (!Array.isArray(values) || values.length < 1 || values.length > 256)
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecEnum");
      const seen = /* @__PURE__ */ new Set();
      for (const v of values) {
        if (typeof v !== "string" || v.length > NAME_MAX || seen.has(v))
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecEnum");
        seen.add(v);
      }
      return finish({ kind: "enum", values: Object.freeze([...values]) });
    }
    function array(items, opts) {
      if (!isCodec(items))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecArray");
      const o = options(opts, ["maxItems"]);
      const maxItems = intIn(o.maxItems, 1, 65536, "codecArray");
      if (maxItems === void 0)
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecArray");
      return finish({ kind: "array", items, maxItems });
    }
    function optional(inner) {
      if (!isCodec(inner))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecInner");
      return Object.freeze({ optional: true, codec: inner });
    }
    function isOptionalField(v) {
      return isPlainObject(v) && v.optional === true && isCodec(v.codec) && Object.keys(v).length === 2;
    }
    var FIELD_NAME = /^[\s\S]{1,128}$/;
    var MAX_GROUPS = 16;
    function fieldList(v, declared, allowEmpty) {
      if (!Array.isArray(v) || !allowEmpty && v.length === 0)
        return void 0;
      const out = [];
      for (const name of v) {
        if (typeof name !== "string" || !Object.prototype.hasOwnProperty.call(declared, name) || out.includes(name))
          return void 0;
        out.push(name);
      }
      return out;
    }
    function object(fields, opts) {
      if (!isPlainObject(fields))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecObject");
      const o = options(opts, ["open", "strict", "requireAnyOf", "when"]);
      if (o.open !== void 0 && typeof o.open !== "boolean")
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecOptions");
      if (o.strict !== void 0 && typeof o.strict !== "boolean")
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecOptions");
      if (o.open === true && o.strict === true)
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecStrict");
      const names = Object.keys(fields);
      if (names.length > 256)
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecObject");
      const out = /* @__PURE__ */ Object.create(null);
      for (const name of names) {
        if (!FIELD_NAME.test(name) || name === "__proto__")
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecObject");
        const f = fields[name];
        if (isCodec(f))
          out[name] = Object.freeze({ codec: f });
        else if (isOptionalField(f))
          out[name] = Object.freeze({ codec: f.codec, optional: true });
        else
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecObject");
      }
      const d = { kind: "object", fields: Object.freeze(out) };
      if (o.open === true)
        d.open = true;
      if (o.strict === true)
        d.strict = true;
      if (o.requireAnyOf !== void 0) {
        const groups = o.requireAnyOf;
        if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_GROUPS)
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecRequireAnyOf");
        d.requireAnyOf = Object.freeze(groups.map((g) => Object.freeze(fieldList(g, out, false) ?? (0, errors_1.fail)("PULSE_ERR_CODEC", "codecRequireAnyOf"))));
      }
      if (o.when !== void 0) {
        const w = isPlainObject(o.when) ? o.when : (0, errors_1.fail)("PULSE_ERR_CODEC", "codecWhen");
        for (const k of Object.keys(w))
          if (!["field", "equals", "then", "else"].includes(k))
            (0, errors_1.fail)("PULSE_ERR_CODEC", "codecWhen");
        const eq = w.equals;
        const scalar = typeof eq === "string" || typeof eq === "boolean" || typeof eq === "number" && Number.isFinite(eq);
        const then = fieldList(w.then ?? [], out, true);
        const otherwise = fieldList(w.else ?? [], out, true);
        if (typeof w.field !== "string" || !Object.prototype.hasOwnProperty.call(out, w.field) || !scalar || then === void 0 || otherwise === void 0 || then.length + otherwise.length === 0)
          (0, errors_1.fail)("PULSE_ERR_CODEC", "codecWhen");
        d.when = Object.freeze({ field: w.field, equals: eq, then: Object.freeze(then), else: Object.freeze(otherwise) });
      }
      return finish(d);
    }
    var REF_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
    var ANCHOR = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
    function ref(name, inner, opts) {
      if (typeof name !== "string" || !REF_NAME.test(name) || !isCodec(inner))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecRef");
      const o = options(opts, ["anchor"]);
      if (o.anchor !== void 0 && (typeof o.anchor !== "string" || !ANCHOR.test(o.anchor)))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecRef");
      const d = { kind: "ref", name, inner };
      if (o.anchor !== void 0)
        d.anchor = o.anchor;
      return finish(d);
    }
    function nullable(inner) {
      if (!isCodec(inner))
        (0, errors_1.fail)("PULSE_ERR_CODEC", "codecInner");
      return finish({ kind: "nullable", inner });
    }
    function json(opts) {
      const o = options(opts, ["maxBytes", "maxDepth"]);
      const maxBytes = intIn(o.maxBytes, 1, 1048576, "codecJson") ?? 4096;
      const maxDepth = intIn(o.maxDepth, 1, 32, "codecJson") ?? 8;
      return finish({ kind: "json", maxBytes, maxDepth });
    }
    function scalarRecord(opts) {
      const o = options(opts, ["maxKeys", "maxBytes"]);
      const maxKeys = intIn(o.maxKeys, 1, 1024, "codecRecord") ?? 64;
      const maxBytes = intIn(o.maxBytes, 1, 1048576, "codecRecord") ?? 4096;
      return finish({ kind: "scalarRecord", maxKeys, maxBytes });
    }
    exports2.codec = Object.freeze({
      string,
      boolean,
      i32,
      u32,
      number,
      enum: enumOf,
      array,
      object,
      ref,
      optional,
      nullable,
      json,
      scalarRecord
    });
  }
});

// router/router.js
var require_router = __commonJS({
  "router/router.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.EntityRouter = exports2.MAX_OPERATIONS = exports2.DEFAULT_BUDGETS = void 0;
    exports2.isEntityRouter = isEntityRouter;
    exports2.routerDefinition = routerDefinition;
    var codecs_1 = require_codecs();
    var options_1 = require_options();
    var errors_1 = require_errors3();
    var helpers_1 = require_helpers();
    var rules_1 = require_rules();
    Object.defineProperty(exports2, "DEFAULT_BUDGETS", { enumerable: true, get: function() {
      return rules_1.DEFAULT_BUDGETS;
    } });
    Object.defineProperty(exports2, "MAX_OPERATIONS", { enumerable: true, get: function() {
      return rules_1.MAX_OPERATIONS;
    } });
    var INERT_JAVASCRIPT = Object.freeze({
      kind: "javascript",
      fn: Object.freeze(function javascriptHandler() {
        return (0, errors_1.fail)("PULSE_ERR_CALL", "callUnsupported");
      })
    });
    var states = /* @__PURE__ */ new WeakMap();
    function isPlainObject(v) {
      if (typeof v !== "object" || v === null || Array.isArray(v))
        return false;
      const p = Object.getPrototypeOf(v);
      return p === Object.prototype || p === null;
    }
    function record(v, max, each, onError) {
      if (v === void 0)
        return Object.freeze(/* @__PURE__ */ Object.create(null));
      if (!isPlainObject(v))
        onError();
      const keys = Object.keys(v);
      if (keys.length > max)
        onError();
      const out = /* @__PURE__ */ Object.create(null);
      for (const k of keys) {
        if (!(0, rules_1.isName)(k))
          onError();
        out[k] = each(k, v[k]);
      }
      return Object.freeze(out);
    }
    function backendUrl(v) {
      const raw = typeof v === "string" ? v : isPlainObject(v) && Object.keys(v).length === 1 ? v.url : void 0;
      const url = (0, rules_1.backendBase)(raw);
      if (url === void 0)
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "backends");
      return Object.freeze({ url });
    }
    function configValue(_k, v) {
      const ok = typeof v === "string" && v.length <= 4096 || typeof v === "number" && Number.isFinite(v) || typeof v === "boolean";
      if (!ok)
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "config");
      return v;
    }
    function budgets(v) {
      if (v === void 0)
        return rules_1.DEFAULT_BUDGETS;
      if (!isPlainObject(v))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "budgets");
      const out = { ...rules_1.DEFAULT_BUDGETS };
      for (const k of Object.keys(v)) {
        const max = rules_1.DEFAULT_BUDGETS[k];
        const n = v[k];
        if (max === void 0 || typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > max) {
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "budgets");
        }
        out[k] = n;
      }
      return Object.freeze(out);
    }
    var MAX_CORPUS_ENTRIES = 4096;
    var MAX_CORPUS_BYTES = 8 * 1048576;
    function corpusDefinition(_k, v) {
      const bad = () => (0, errors_1.fail)("PULSE_ERR_DECLARATION", "corpora");
      if (!isPlainObject(v) || typeof v.version !== "string" || v.version.length < 1 || v.version.length > 128)
        bad();
      const c = v;
      if (!Array.isArray(c.entries) || c.entries.length > MAX_CORPUS_ENTRIES)
        bad();
      const ids = /* @__PURE__ */ new Set();
      let bytes = 0;
      const entries = c.entries.map((e) => {
        if (!isPlainObject(e))
          bad();
        const { id, title, collection, text, tags } = e;
        if (!(0, rules_1.isName)(id) || ids.has(id))
          bad();
        if (typeof title !== "string" || title.length > 512)
          bad();
        if (!(0, rules_1.isName)(collection))
          bad();
        if (typeof text !== "string")
          bad();
        if (tags !== void 0 && (!Array.isArray(tags) || tags.length > 32 || tags.some((t) => typeof t !== "string" || t.length > 64)))
          bad();
        ids.add(id);
        bytes += (0, helpers_1.utf8Length)(text) + (0, helpers_1.utf8Length)(title);
        const entry = { id, title, collection, text };
        if (tags !== void 0)
          entry.tags = [...tags];
        return entry;
      });
      if (bytes > MAX_CORPUS_BYTES)
        bad();
      return (0, helpers_1.deepFreeze)({ version: c.version, entries });
    }
    var OPERATION_KEYS = ["input", "output", "title", "description", "hints", "content", "inputs", "headerParams", "authenticated", "handler"];
    var EntityRouter = class {
      constructor(id, options) {
        if (!(0, rules_1.isName)(id))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "routerId");
        const o = options ?? {};
        if (!isPlainObject(o) || Object.keys(o).some((k) => !["backends", "config", "budgets", "corpora"].includes(k))) {
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "routerOptions");
        }
        states.set(this, {
          id,
          operations: /* @__PURE__ */ new Map(),
          backends: record(o.backends, 32, (_k, v) => backendUrl(v), () => (0, errors_1.fail)("PULSE_ERR_DECLARATION", "backends")),
          config: record(o.config, 256, configValue, () => (0, errors_1.fail)("PULSE_ERR_DECLARATION", "config")),
          budgets: budgets(o.budgets),
          corpora: record(o.corpora, 16, corpusDefinition, () => (0, errors_1.fail)("PULSE_ERR_DECLARATION", "corpora")),
          definition: void 0,
          published: void 0
        });
        Object.freeze(this);
      }
      get id() {
        return state(this).id;
      }
      /** Declared operation names, in declaration order. */
      get operationNames() {
        return Object.freeze([...state(this).operations.keys()]);
      }
      /** Whether the router is bound (no further declarations). */
      get frozen() {
        return state(this).definition !== void 0;
      }
      /**
       * The plain-data definition for build tooling (the compiler CLI). Binds (freezes) the router.
       * JavaScript handlers appear as one shared inert placeholder, never as the declared function.
       */
      definition() {
        const s = state(this);
        if (s.published === void 0) {
          const full = routerDefinition(this);
          s.published = Object.freeze({
            ...full,
            operations: Object.freeze(full.operations.map((op) => op.handler.kind === "javascript" ? Object.freeze({ ...op, handler: INERT_JAVASCRIPT }) : op))
          });
        }
        return s.published;
      }
      operation(name, options) {
        const s = state(this);
        if (s.definition !== void 0)
          (0, errors_1.fail)("PULSE_ERR_FROZEN", "frozen");
        if (!(0, rules_1.isName)(name))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationName");
        if (s.operations.has(name))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationDuplicate");
        if (s.operations.size >= rules_1.MAX_OPERATIONS)
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationCount");
        const o = options;
        if (!isPlainObject(o) || Object.keys(o).some((k) => !OPERATION_KEYS.includes(k)))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationOptions");
        const { input, output, title, description, hints, content, inputs, headerParams, authenticated, handler } = o;
        if (title !== void 0 && (typeof title !== "string" || title.length > 256))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationTitle");
        if (description !== void 0 && (typeof description !== "string" || description.length > 4096)) {
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationTitle");
        }
        if (hints !== void 0) {
          if (!isPlainObject(hints) || Object.keys(hints).some((k) => !rules_1.HINT_KEYS.includes(k) || typeof hints[k] !== "boolean")) {
            (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationHints");
          }
        }
        if (input !== void 0 && (!(0, codecs_1.isCodec)(input) || input.kind !== "object"))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationInput");
        if (output !== void 0 && !(0, codecs_1.isCodec)(output))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationOutput");
        if (content !== void 0 && typeof content !== "boolean")
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationContent");
        if (content === true && output !== void 0)
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationContent");
        if (inputs !== void 0 && !Array.isArray(inputs))
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationInputs");
        if (headerParams !== void 0) {
          if (!isPlainObject(headerParams) || Object.values(headerParams).some((h) => typeof h !== "string")) {
            (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationHeaderParams");
          }
        }
        if (authenticated !== void 0 && typeof authenticated !== "boolean")
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "operationAuthenticated");
        const def = { name, handler: handlerDefinition(s, handler) };
        if (title !== void 0)
          def.title = title;
        if (description !== void 0)
          def.description = description;
        if (hints !== void 0)
          def.hints = Object.freeze({ ...hints });
        if (input !== void 0)
          def.input = input;
        if (output !== void 0)
          def.output = output;
        if (content === true)
          def.content = true;
        if (inputs !== void 0)
          def.inputs = (0, helpers_1.deepFreeze)(JSON.parse((0, options_1.jsonText)(inputs, `operation "${name}" inputs`)));
        if (headerParams !== void 0)
          def.headerParams = Object.freeze({ ...headerParams });
        if (authenticated === true)
          def.authenticated = true;
        s.operations.set(name, Object.freeze(def));
        return this;
      }
    };
    exports2.EntityRouter = EntityRouter;
    function handlerDefinition(s, h) {
      if (typeof h === "function") {
        return Object.freeze({ kind: "javascript", fn: h });
      }
      if (!(0, helpers_1.isNativeHandler)(h))
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handler");
      if (h.kind === "corpus" && s.corpora[h.corpus] === void 0)
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerCorpus");
      if (h.kind === "backend") {
        if (s.backends[h.backend] === void 0)
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackend");
        if (h.timeoutMs > s.budgets.deadlineMs)
          (0, errors_1.fail)("PULSE_ERR_DECLARATION", "handlerBackendOptions");
      }
      return h;
    }
    function state(r) {
      const s = states.get(r);
      if (s === void 0)
        (0, errors_1.fail)("PULSE_ERR_DECLARATION", "routerId");
      return s;
    }
    function isEntityRouter(v) {
      return typeof v === "object" && v !== null && states.has(v);
    }
    function routerDefinition(r) {
      const s = state(r);
      if (s.definition === void 0) {
        s.definition = Object.freeze({
          id: s.id,
          operations: Object.freeze([...s.operations.values()]),
          corpora: s.corpora,
          backends: s.backends,
          config: s.config,
          budgets: s.budgets
        });
      }
      return s.definition;
    }
  }
});

// compiler/corpus.js
var require_corpus = __commonJS({
  "compiler/corpus.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.corpusIndexes = corpusIndexes;
    var engine_1 = require_engine();
    var errors_1 = require_errors2();
    function corpusIndexes(core) {
      const build = (0, engine_1.corpusIndexer)(core);
      return (def, where) => {
        let json;
        try {
          json = JSON.stringify(def);
        } catch {
          (0, errors_1.fail)(`${where}: corpus must be plain JSON data`);
        }
        const r = build(json);
        if (!r.ok)
          (0, errors_1.fail)(`${where}: ${r.message}`);
        return r.index;
      };
    }
  }
});

// compiler/sha256.js
var require_sha256 = __commonJS({
  "compiler/sha256.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.sha256 = sha256;
    exports2.sha256Hex = sha256Hex;
    var K = new Uint32Array([
      1116352408,
      1899447441,
      3049323471,
      3921009573,
      961987163,
      1508970993,
      2453635748,
      2870763221,
      3624381080,
      310598401,
      607225278,
      1426881987,
      1925078388,
      2162078206,
      2614888103,
      3248222580,
      3835390401,
      4022224774,
      264347078,
      604807628,
      770255983,
      1249150122,
      1555081692,
      1996064986,
      2554220882,
      2821834349,
      2952996808,
      3210313671,
      3336571891,
      3584528711,
      113926993,
      338241895,
      666307205,
      773529912,
      1294757372,
      1396182291,
      1695183700,
      1986661051,
      2177026350,
      2456956037,
      2730485921,
      2820302411,
      3259730800,
      3345764771,
      3516065817,
      3600352804,
      4094571909,
      275423344,
      430227734,
      506948616,
      659060556,
      883997877,
      958139571,
      1322822218,
      1537002063,
      1747873779,
      1955562222,
      2024104815,
      2227730452,
      2361852424,
      2428436474,
      2756734187,
      3204031479,
      3329325298
    ]);
    function sha256(data) {
      const bitLen = data.length * 8;
      const padded = new Uint8Array(data.length + 9 + 63 >> 6 << 6);
      padded.set(data);
      padded[data.length] = 128;
      const view = new DataView(padded.buffer);
      view.setUint32(padded.length - 8, Math.floor(bitLen / 4294967296));
      view.setUint32(padded.length - 4, bitLen >>> 0);
      const h = new Uint32Array([1779033703, 3144134277, 1013904242, 2773480762, 1359893119, 2600822924, 528734635, 1541459225]);
      const w = new Uint32Array(64);
      for (let off = 0; off < padded.length; off += 64) {
        for (let i = 0; i < 16; i++)
          w[i] = view.getUint32(off + i * 4);
        for (let i = 16; i < 64; i++) {
          const a2 = w[i - 15], b2 = w[i - 2];
          const s0 = (a2 >>> 7 | a2 << 25) ^ (a2 >>> 18 | a2 << 14) ^ a2 >>> 3;
          const s1 = (b2 >>> 17 | b2 << 15) ^ (b2 >>> 19 | b2 << 13) ^ b2 >>> 10;
          w[i] = w[i - 16] + s0 + w[i - 7] + s1 >>> 0;
        }
        let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
        for (let i = 0; i < 64; i++) {
          const S1 = (e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7);
          const ch = e & f ^ ~e & g;
          const t1 = k + S1 + ch + K[i] + w[i] >>> 0;
          const S0 = (a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10);
          const maj = a & b ^ a & c ^ b & c;
          const t2 = S0 + maj >>> 0;
          k = g;
          g = f;
          f = e;
          e = d + t1 >>> 0;
          d = c;
          c = b;
          b = a;
          a = t1 + t2 >>> 0;
        }
        h[0] = h[0] + a >>> 0;
        h[1] = h[1] + b >>> 0;
        h[2] = h[2] + c >>> 0;
        h[3] = h[3] + d >>> 0;
        h[4] = h[4] + e >>> 0;
        h[5] = h[5] + f >>> 0;
        h[6] = h[6] + g >>> 0;
        h[7] = h[7] + k >>> 0;
      }
      const out = new Uint8Array(32);
      const ov = new DataView(out.buffer);
      for (let i = 0; i < 8; i++)
        ov.setUint32(i * 4, h[i]);
      return out;
    }
    function sha256Hex(text) {
      let hex = "";
      for (const byte of sha256(new TextEncoder().encode(text)))
        hex += byte.toString(16).padStart(2, "0");
      return hex;
    }
  }
});

// compiler/index.js
var require_compiler = __commonJS({
  "compiler/index.js"(exports2) {
    "use strict";
    var __createBinding = exports2 && exports2.__createBinding || (Object.create ? (function(o, m, k, k2) {
      if (k2 === void 0) k2 = k;
      var desc = Object.getOwnPropertyDescriptor(m, k);
      if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
        desc = { enumerable: true, get: function() {
          return m[k];
        } };
      }
      Object.defineProperty(o, k2, desc);
    }) : (function(o, m, k, k2) {
      if (k2 === void 0) k2 = k;
      o[k2] = m[k];
    }));
    var __exportStar = exports2 && exports2.__exportStar || function(m, exports3) {
      for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports3, p)) __createBinding(exports3, m, p);
    };
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.sha256Hex = exports2.ManifestError = void 0;
    exports2.compileRouter = compileRouter;
    exports2.artifactFiles = artifactFiles;
    var helpers_1 = require_helpers();
    var rules_1 = require_rules();
    var corpus_1 = require_corpus();
    var errors_1 = require_errors2();
    var projection_1 = require_projection();
    var sha256_1 = require_sha256();
    var types_1 = require_types();
    __exportStar(require_types(), exports2);
    var errors_2 = require_errors2();
    Object.defineProperty(exports2, "ManifestError", { enumerable: true, get: function() {
      return errors_2.ManifestError;
    } });
    var sha256_2 = require_sha256();
    Object.defineProperty(exports2, "sha256Hex", { enumerable: true, get: function() {
      return sha256_2.sha256Hex;
    } });
    var isPlainObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
    function withHash(body, first) {
      const hash = `sha256:${(0, sha256_1.sha256Hex)(JSON.stringify(body))}`;
      const out = {};
      for (const k of first)
        out[k] = body[k];
      out.hash = hash;
      for (const [k, v] of Object.entries(body))
        if (!first.includes(k))
          out[k] = v;
      return out;
    }
    function staticJson(value, where) {
      const text = (0, helpers_1.staticResultText)(value);
      if (text === void 0)
        (0, errors_1.fail)(`${where}: static result must be ${rules_1.STATIC_RESULT_RULE}`);
      return text;
    }
    function backendUrl(base, path, where) {
      if ((0, rules_1.backendBase)(base) === void 0)
        (0, errors_1.fail)(`${where}: backend url must be https or loopback http without credentials, query or fragment`);
      if (!(0, rules_1.isBackendPath)(path))
        (0, errors_1.fail)(`${where}: backend path must be an absolute path of unreserved characters without dot segments`);
      const url = (0, rules_1.backendCallUrl)(base, path);
      if (!(0, rules_1.isBackendUrl)(url))
        (0, errors_1.fail)(`${where}: backend url with its path must be at most ${rules_1.MAX_URL_BYTES} characters`);
      return url;
    }
    function requireField(input, name, kinds, required, where) {
      const f = input?.kind === "object" ? input.fields[name] : void 0;
      if (f === void 0) {
        if (required)
          (0, errors_1.fail)(`${where}: this corpus action needs an input field "${name}"`);
        return;
      }
      if (!kinds.includes(f.codec.kind) || required && f.optional === true)
        (0, errors_1.fail)(`${where}: input field "${name}" must be ${required ? "a required" : "an"} ${kinds.join(" or ")} field`);
    }
    function bounded(v, dflt, range, what, where) {
      const n = v ?? dflt;
      if (!(0, rules_1.inRange)(n, range))
        (0, errors_1.fail)(`${where}: ${what} must be an integer from ${range.min} to ${range.max}`);
      return n;
    }
    function compileHandler(op, def, where) {
      const h = op.handler;
      if (!isPlainObject(h))
        (0, errors_1.fail)(`${where}: handler must be a handler definition`);
      switch (h.kind) {
        case "static":
          return op.output === void 0 && op.content !== true ? { kind: "static" } : { kind: "static", result: staticJson(h.result, where) };
        case "corpus": {
          if (!Object.prototype.hasOwnProperty.call(def.corpora, h.corpus))
            (0, errors_1.fail)(`${where}: corpus is not declared on the router`);
          const topK = bounded(h.topK, rules_1.DEFAULT_TOP_K, rules_1.TOP_K, "topK", where);
          const maxBytes = bounded(h.maxBytes, rules_1.DEFAULT_CORPUS_MAX_BYTES, rules_1.HANDLER_BYTES, "maxBytes", where);
          if (h.action === "search") {
            requireField(op.input, "query", ["string"], true, where);
            requireField(op.input, "limit", ["u32", "i32"], false, where);
          } else if (h.action === "read") {
            requireField(op.input, "id", ["string", "enum"], true, where);
          } else if (h.action === "list") {
            requireField(op.input, "collection", ["string", "enum"], false, where);
            requireField(op.input, "limit", ["u32", "i32"], false, where);
          } else
            (0, errors_1.fail)(`${where}: corpus action must be search, read or list`);
          return { kind: "corpus", corpus: h.corpus, action: h.action, topK, maxBytes };
        }
        case "backend": {
          if (!Object.prototype.hasOwnProperty.call(def.backends, h.backend))
            (0, errors_1.fail)(`${where}: backend is not declared on the router`);
          if (!rules_1.BACKEND_METHODS.includes(h.method))
            (0, errors_1.fail)(`${where}: backend method must be one of ${rules_1.BACKEND_METHODS.join(", ")}`);
          if (h.method === "GET" && op.input !== void 0)
            (0, errors_1.fail)(`${where}: a GET backend call carries no body, so the operation must take no input`);
          const url = backendUrl(def.backends[h.backend].url, h.path, where);
          const maxBytes = bounded(h.maxBytes, void 0, rules_1.HANDLER_BYTES, "maxBytes", where);
          const timeoutMs = bounded(h.timeoutMs, void 0, { min: 1, max: def.budgets.deadlineMs }, "timeoutMs", where);
          return { kind: "backend", backend: h.backend, method: h.method, url, maxBytes, timeoutMs };
        }
        case "javascript":
          if (typeof h.fn !== "function")
            (0, errors_1.fail)(`${where}: javascript handler must be a function`);
          return { kind: "javascript" };
        default:
          return (0, errors_1.fail)(`${where}: unknown handler kind`);
      }
    }
    function compileRouter(def, options = {}) {
      if (!(0, rules_1.isName)(def.id))
        (0, errors_1.fail)(`router id must be ${rules_1.NAME_RULE}`);
      if (!Array.isArray(def.operations))
        (0, errors_1.fail)("router operations must be a list");
      if (def.operations.length > rules_1.MAX_OPERATIONS)
        (0, errors_1.fail)(`router declares ${def.operations.length} operations; at most ${rules_1.MAX_OPERATIONS} tools are allowed`);
      const deadlineMs = def.budgets?.deadlineMs;
      if (typeof deadlineMs !== "number" || !Number.isInteger(deadlineMs) || deadlineMs < 1)
        (0, errors_1.fail)("router budgets.deadlineMs must be a positive integer");
      const names = /* @__PURE__ */ new Set();
      const tools = [];
      const listed = [];
      const catalogOps = [];
      const schemas = [];
      const usedCorpora = /* @__PURE__ */ new Set();
      for (const op of def.operations) {
        if (!(0, rules_1.isName)(op.name))
          (0, errors_1.fail)(`operation name must be ${rules_1.NAME_RULE}`);
        const where = `operation "${op.name}"`;
        if (names.has(op.name))
          (0, errors_1.fail)(`${where}: duplicate operation name`);
        names.add(op.name);
        for (const k of ["title", "description"])
          if (op[k] !== void 0 && typeof op[k] !== "string")
            (0, errors_1.fail)(`${where}: ${k} must be a string`);
        const hints = {};
        if (op.hints !== void 0) {
          if (!isPlainObject(op.hints))
            (0, errors_1.fail)(`${where}: hints must be an object`);
          for (const k of Object.keys(op.hints))
            if (!rules_1.HINT_KEYS.includes(k))
              (0, errors_1.fail)(`${where}: unknown hint "${k}"; only the four boolean MCP hints are allowed`);
          for (const k of rules_1.HINT_KEYS) {
            const v = op.hints[k];
            if (v === void 0)
              continue;
            if (typeof v !== "boolean")
              (0, errors_1.fail)(`${where}: hint ${k} must be a boolean`);
            hints[k] = v;
          }
        }
        if (op.input !== void 0 && op.input.kind !== "object")
          (0, errors_1.fail)(`${where}: input must be an object codec`);
        const input = op.input === void 0 ? (0, projection_1.noInputSchema)() : (0, projection_1.project)(op.input, "input", `${where} input`);
        const output = op.output === void 0 ? void 0 : (0, projection_1.project)(op.output, "output", `${where} output`);
        if (input.nodes + (output?.nodes ?? 0) > projection_1.MAX_PROJECTION_NODES)
          (0, errors_1.fail)(`${where}: schema projection exceeds ${projection_1.MAX_PROJECTION_NODES} nodes`);
        const handler = compileHandler(op, def, where);
        if (handler.kind === "corpus")
          usedCorpora.add(handler.corpus);
        const headers = Object.entries(op.headerParams ?? {});
        tools.push({
          name: op.name,
          input: op.input === void 0 ? null : (0, projection_1.compileProgram)(op.input, `${where} input`),
          output: op.output === void 0 ? null : (0, projection_1.compileProgram)(op.output, `${where} output`),
          ...op.content === true ? { content: true } : {},
          ...op.inputs !== void 0 ? { inputs: op.inputs } : {},
          ...headers.length > 0 ? { headers } : {},
          handler
        });
        for (const [field, name] of headers) {
          const property = input.schema.properties?.[field];
          if (property === void 0)
            (0, errors_1.fail)(`${where}: headerParams names "${field}", which is not an input field`);
          property["x-mcp-header"] = name;
        }
        const tool = { name: op.name };
        if (op.title !== void 0)
          tool.title = op.title;
        if (op.description !== void 0)
          tool.description = op.description;
        tool.inputSchema = input.schema;
        if (output !== void 0)
          tool.outputSchema = output.schema;
        if (Object.keys(hints).length > 0)
          tool.annotations = hints;
        listed.push(tool);
        const inputId = `${op.name}#input`;
        const outputId = output === void 0 ? null : `${op.name}#output`;
        schemas.push({ id: inputId, schema: input.schema });
        if (output !== void 0)
          schemas.push({ id: outputId, schema: output.schema });
        const entry = { name: op.name };
        if (op.title !== void 0)
          entry.title = op.title;
        if (op.description !== void 0)
          entry.description = op.description;
        if (Object.keys(hints).length > 0)
          entry.hints = hints;
        Object.assign(entry, {
          input: inputId,
          output: outputId,
          handler: handler.kind,
          targets: (0, types_1.eligibleTargets)(op.handler.kind)
        });
        if (op.authenticated !== void 0 && typeof op.authenticated !== "boolean")
          (0, errors_1.fail)(`${where}: authenticated must be a boolean`);
        if (op.authenticated === true)
          entry.authenticated = true;
        catalogOps.push(entry);
      }
      const list = JSON.stringify(listed);
      const corpora = {};
      const index = (0, corpus_1.corpusIndexes)(options.core);
      for (const name of [...usedCorpora].sort())
        corpora[name] = index(def.corpora[name], `corpus "${name}"`);
      const catalog = withHash({ formatVersion: types_1.CATALOG_FORMAT_VERSION, kind: "pulse.entities-catalog", routerId: def.id, operations: catalogOps }, ["formatVersion", "kind"]);
      const schemaRegistry = withHash({ formatVersion: types_1.SCHEMA_REGISTRY_FORMAT_VERSION, kind: "pulse.schema-json-registry", routerId: def.id, schemas }, ["formatVersion", "kind"]);
      const manifest = {
        formatVersion: types_1.MANIFEST_FORMAT_VERSION,
        routerId: def.id,
        catalogHash: catalog.hash,
        deadlineMs,
        list,
        tools,
        corpora
      };
      return { manifest, catalog, schemaRegistry };
    }
    function artifactFiles(compiled) {
      return {
        "manifest.json": `${JSON.stringify(compiled.manifest)}
`,
        "entities-catalog.json": `${JSON.stringify(compiled.catalog, null, 2)}
`,
        "schema-json-registry.json": `${JSON.stringify(compiled.schemaRegistry, null, 2)}
`
      };
    }
  }
});

// handlers/context.js
var require_context = __commonJS({
  "handlers/context.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.PulseCallValidationError = exports2.RequestScope = exports2.LOG_RECORDS_PER_REQUEST = exports2.KV_OPS_PER_REQUEST = exports2.MAX_CALL_DEPTH = void 0;
    exports2.createMemoryKv = createMemoryKv;
    exports2.createContext = createContext;
    exports2.createHandlerRunner = createHandlerRunner;
    var compiler_1 = require_compiler();
    var engine_1 = require_engine();
    var errors_1 = require_errors3();
    var rules_1 = require_rules();
    var helpers_1 = require_helpers();
    var cancellation_1 = require_cancellation();
    var thenable_1 = require_thenable();
    exports2.MAX_CALL_DEPTH = 4;
    exports2.KV_OPS_PER_REQUEST = 64;
    exports2.LOG_RECORDS_PER_REQUEST = 64;
    var LOG_MESSAGE_MAX = 2048;
    var LOG_FIELDS_MAX = 8192;
    var KV_KEY_MAX = 512;
    var KV_VALUE_MAX = 65536;
    var REDACTED = "[REDACTED]";
    var now = typeof performance !== "undefined" && typeof performance.now === "function" ? () => performance.now() : () => Date.now();
    function createMemoryKv(maxKeys = 1024) {
      const map = /* @__PURE__ */ new Map();
      return {
        get: (k) => map.get(k),
        put: (k, v) => {
          if (!map.has(k) && map.size >= maxKeys)
            (0, errors_1.fail)("PULSE_ERR_KV", "kvFull");
          map.set(k, v);
        },
        delete: (k) => {
          map.delete(k);
        }
      };
    }
    function endError(why) {
      return why === "deadline" ? new errors_1.PulseRouterError("PULSE_ERR_DEADLINE", "deadline") : new errors_1.PulseRouterError("PULSE_ERR_CONTEXT_CLOSED", "closed");
    }
    var RequestScope = class {
      deadlineAt;
      deadlineEpoch;
      fetchesLeft;
      bytesLeft;
      callsLeft;
      kvLeft = exports2.KV_OPS_PER_REQUEST;
      logsLeft = exports2.LOG_RECORDS_PER_REQUEST;
      closed = false;
      /** Secret values this request read, masked in its logs; made on the first read. */
      #secrets;
      /** Why the scope ended (the deadline, or closed), once it has. */
      #ended;
      /** The signal and its abort, made on first use: most handlers never look at `ctx.signal`. */
      #signal;
      #abort;
      /**
       * The deadline as a promise that rejects, and its timer: made on the first `race`, so a handler
       * that finishes without waiting on anything costs neither.
       */
      #expired;
      #reject;
      #timer;
      #expire;
      /** The host's signal this scope listens to, until it closes. */
      #external;
      constructor(budgetMs, budgets, external) {
        const start = now();
        this.deadlineAt = start + budgetMs;
        this.deadlineEpoch = Date.now() + budgetMs;
        this.fetchesLeft = budgets.fetches;
        this.bytesLeft = budgets.fetchBytes;
        this.callsLeft = budgets.calls;
        const expire = () => {
          if (this.#ended !== void 0)
            return;
          this.#end("deadline");
          this.#reject?.(endError("deadline"));
        };
        this.#expire = expire;
        if (external?.aborted === true)
          expire();
        else if (external !== void 0) {
          external.addEventListener("abort", expire);
          this.#external = external;
        }
      }
      /** Aborted when the budget runs out or the request ends: outstanding fetches stop. */
      get signal() {
        if (this.#signal === void 0) {
          if (typeof AbortController === "function") {
            const c = new AbortController();
            this.#signal = c.signal;
            this.#abort = (r) => c.abort(r);
          } else {
            const s = new cancellation_1.Cancellation();
            this.#signal = s;
            this.#abort = (r) => s.cancel(r);
          }
          if (this.#ended !== void 0)
            this.#abort(endError(this.#ended));
        }
        return this.#signal;
      }
      /** Whether the budget ran out (or the external signal fired). */
      get aborted() {
        return this.#ended === "deadline";
      }
      #end(why) {
        this.#ended = why;
        this.#abort?.(endError(why));
      }
      remainingMs() {
        return Math.max(0, this.deadlineAt - now());
      }
      assertOpen() {
        if (this.closed)
          (0, errors_1.fail)("PULSE_ERR_CONTEXT_CLOSED", "closed");
        if (this.aborted || this.remainingMs() <= 0)
          (0, errors_1.fail)("PULSE_ERR_DEADLINE", "deadline");
      }
      /** Runs `work` until it settles or the budget expires, whichever comes first. */
      race(work) {
        return Promise.race([Promise.resolve().then(work), this.#deadline()]);
      }
      /** Rejects with the deadline error once the budget runs out; never settles after `close`. */
      #deadline() {
        if (this.#expired === void 0) {
          this.#expired = new Promise((_, r) => this.#reject = r);
          this.#expired.catch(() => void 0);
          if (this.#ended === "deadline")
            this.#reject(endError("deadline"));
          else if (this.#ended === void 0 && this.#external === void 0)
            this.#timer = setTimeout(this.#expire, Math.max(0, this.deadlineAt - now()));
        }
        return this.#expired;
      }
      close() {
        this.closed = true;
        if (this.#timer !== void 0)
          clearTimeout(this.#timer);
        this.#external?.removeEventListener("abort", this.#expire);
        if (this.#ended === void 0)
          this.#end("closed");
      }
      addSecret(value) {
        (this.#secrets ??= /* @__PURE__ */ new Set()).add(value);
      }
      redact(text) {
        if (this.#secrets === void 0)
          return text;
        let out = text;
        for (const v of [...this.#secrets].sort((a, b) => b.length - a.length)) {
          if (v !== "")
            out = out.split(v).join(REDACTED);
        }
        return out;
      }
    };
    exports2.RequestScope = RequestScope;
    function headerList(h) {
      if (h === void 0)
        return [];
      const list = Array.isArray(h) ? h : Object.entries(h);
      for (const pair of list) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || typeof pair[1] !== "string") {
          (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
        }
      }
      return list.map(([n, v]) => [n, v]);
    }
    var NULL_BODY_STATUS = /* @__PURE__ */ new Set([204, 205, 304]);
    async function governedFetch(env, scope, input, init) {
      scope.assertOpen();
      if (typeof input !== "string" && !(input instanceof URL))
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
      let url;
      try {
        url = new URL(String(input));
      } catch {
        return (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
      }
      if (!env.origins.has(url.origin) || url.username !== "" || url.password !== "")
        (0, errors_1.fail)("PULSE_ERR_FETCH_DENIED", "fetchDenied");
      const i = init === void 0 ? {} : init;
      if (typeof i !== "object" || i === null || Object.keys(i).some((k) => !["method", "headers", "body"].includes(k))) {
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
      }
      const method = i.method === void 0 ? "GET" : i.method;
      if (typeof method !== "string" || !/^[A-Za-z]{1,16}$/.test(method))
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
      const headers = headerList(i.headers);
      const body = i.body;
      if (body !== void 0 && body !== null && typeof body !== "string" && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) {
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchInvalid");
      }
      const f = typeof globalThis.fetch === "function" ? globalThis.fetch : void 0;
      if (f === void 0)
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchUnavailable");
      if (scope.fetchesLeft <= 0)
        (0, errors_1.fail)("PULSE_ERR_BUDGET", "budgetFetches");
      scope.fetchesLeft -= 1;
      const requestInit = { method, headers, redirect: "manual" };
      if (body !== void 0 && body !== null)
        requestInit.body = body;
      if (typeof AbortSignal === "function" && scope.signal instanceof AbortSignal)
        requestInit.signal = scope.signal;
      let res;
      try {
        res = await scope.race(() => f(url.href, requestInit));
      } catch (e) {
        throw scopeError(scope, e, "fetchFailed");
      }
      if (res.status >= 300 && res.status < 400 || res.type === "opaqueredirect") {
        await cancel(res);
        (0, errors_1.fail)("PULSE_ERR_FETCH_FAILED", "fetchRedirect");
      }
      const bytes = await readBounded(scope, res);
      const out = new Response(NULL_BODY_STATUS.has(res.status) ? null : bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
      return out;
    }
    async function cancel(res) {
      try {
        await res.body?.cancel();
      } catch {
      }
    }
    async function readBounded(scope, res) {
      if (res.body === null)
        return new Uint8Array(0);
      const reader = res.body.getReader();
      const chunks = [];
      let total = 0;
      try {
        for (; ; ) {
          const { done, value } = await scope.race(() => reader.read());
          if (done)
            break;
          total += value.byteLength;
          if (total > scope.bytesLeft) {
            scope.bytesLeft = 0;
            (0, errors_1.fail)("PULSE_ERR_BUDGET", "budgetBytes");
          }
          chunks.push(value);
        }
      } catch (e) {
        reader.cancel().catch(() => void 0);
        throw scopeError(scope, e, "fetchFailed");
      }
      scope.bytesLeft -= total;
      const out = new Uint8Array(total);
      let at = 0;
      for (const c of chunks) {
        out.set(c, at);
        at += c.byteLength;
      }
      return out;
    }
    function scopeError(scope, e, fallback) {
      if ((0, errors_1.isPulseRouterError)(e))
        return e;
      if (scope.closed)
        return new errors_1.PulseRouterError("PULSE_ERR_CONTEXT_CLOSED", "closed");
      if (scope.aborted || scope.remainingMs() <= 0)
        return new errors_1.PulseRouterError("PULSE_ERR_DEADLINE", "deadline");
      const code = fallback === "fetchFailed" ? "PULSE_ERR_FETCH_FAILED" : fallback === "callFailed" ? "PULSE_ERR_CALL" : "PULSE_ERR_KV";
      return new errors_1.PulseRouterError(code, fallback);
    }
    function redactDeep(scope, v) {
      if (typeof v === "string")
        return scope.redact(v);
      if (Array.isArray(v))
        return v.map((x) => redactDeep(scope, x));
      if (typeof v === "object" && v !== null) {
        const out = {};
        for (const [k, x] of Object.entries(v))
          out[scope.redact(k)] = redactDeep(scope, x);
        return out;
      }
      return v;
    }
    function sanitizeFields(scope, fields) {
      if (fields === void 0)
        return void 0;
      if (typeof fields !== "object" || fields === null || Array.isArray(fields) || !(0, helpers_1.isPlainJson)(fields))
        return { unserializable: true };
      const out = redactDeep(scope, fields);
      return JSON.stringify(out).length > LOG_FIELDS_MAX ? { truncated: true } : out;
    }
    function makeLogger(env, scope, operation) {
      const emit = (level) => (message, fields) => {
        const sink = env.options.log;
        if (sink === void 0 || scope.closed || scope.logsLeft <= 0)
          return;
        scope.logsLeft -= 1;
        const msg = scope.redact(typeof message === "string" ? message : "").slice(0, LOG_MESSAGE_MAX);
        const f = sanitizeFields(scope, fields);
        const record = Object.freeze(f === void 0 ? { level, operation, message: msg, time: Date.now() } : { level, operation, message: msg, fields: f, time: Date.now() });
        try {
          sink(record);
        } catch {
        }
      };
      return Object.freeze({ debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") });
    }
    function makeKv(env, scope) {
      const guard = (key) => {
        scope.assertOpen();
        if (typeof key !== "string" || key.length < 1 || key.length > KV_KEY_MAX)
          (0, errors_1.fail)("PULSE_ERR_KV", "kvKey");
        if (scope.kvLeft <= 0)
          (0, errors_1.fail)("PULSE_ERR_BUDGET", "kvFailed");
        scope.kvLeft -= 1;
        return key;
      };
      const run = async (work) => {
        try {
          return await scope.race(work);
        } catch (e) {
          throw scopeError(scope, e, "kvFailed");
        }
      };
      return Object.freeze({
        get: async (key) => {
          const k = guard(key);
          const v = await run(() => env.kv.get(k));
          return typeof v === "string" ? v : void 0;
        },
        put: async (key, value) => {
          const k = guard(key);
          if (typeof value !== "string" || value.length > KV_VALUE_MAX)
            (0, errors_1.fail)("PULSE_ERR_KV", "kvValue");
          await run(() => env.kv.put(k, value));
        },
        delete: async (key) => {
          const k = guard(key);
          await run(() => env.kv.delete(k));
        }
      });
    }
    var NO_RESPONSES = Object.freeze({});
    function frozenJson(v) {
      if (typeof v !== "object" || v === null)
        return v;
      for (const key of Object.keys(v))
        frozenJson(v[key]);
      return Object.freeze(v);
    }
    var Context = class {
      operation;
      deadline;
      config;
      inputResponses;
      progress;
      fetch;
      secret;
      call;
      #env;
      #scope;
      // Private fields are not properties: the frozen context still caches them.
      #kv;
      #log;
      constructor(env, scope, operation, depth, inputResponses, report) {
        this.#env = env;
        this.#scope = scope;
        this.operation = operation;
        this.deadline = scope.deadlineEpoch;
        this.config = env.definition.config;
        this.inputResponses = inputResponses;
        this.progress = (progress, total, message) => {
          if (report !== void 0 && !scope.closed)
            report(progress, total, message);
        };
        this.fetch = (url, init) => governedFetch(env, scope, url, init);
        this.secret = (name) => {
          scope.assertOpen();
          if (!(0, rules_1.isName)(name))
            (0, errors_1.fail)("PULSE_ERR_SECRET", "secretName");
          const provider = env.options.secrets;
          if (provider === void 0)
            return void 0;
          let v;
          try {
            v = provider(name);
          } catch {
            return (0, errors_1.fail)("PULSE_ERR_SECRET", "secretFailed");
          }
          if (typeof v !== "string")
            return void 0;
          scope.addSecret(v);
          return v;
        };
        this.call = (name, input) => callOperation(env, scope, name, input === void 0 ? {} : input, depth + 1);
        Object.freeze(this);
      }
      get signal() {
        return this.#scope.signal;
      }
      get kv() {
        this.#kv ??= makeKv(this.#env, this.#scope);
        return this.#kv;
      }
      get log() {
        this.#log ??= makeLogger(this.#env, this.#scope, this.operation);
        return this.#log;
      }
    };
    Object.freeze(Context.prototype);
    function createContext(env, scope, operation, depth, inputResponses = NO_RESPONSES, report = void 0) {
      return new Context(env, scope, operation, depth, inputResponses, report);
    }
    var CHECK_TEXT_MAX = 256;
    var PulseCallValidationError = class extends errors_1.PulseRouterError {
      operation;
      direction;
      /** Where the codec stopped, e.g. `$.count` (from the core, bounded). */
      path;
      /** The codec's fixed message, e.g. `Expected an integer` (from the core, bounded). */
      reason;
      constructor(operation, direction, path, reason) {
        super("PULSE_ERR_CALL", "callFailed");
        this.operation = operation;
        this.direction = direction;
        this.path = path.slice(0, CHECK_TEXT_MAX);
        this.reason = reason.slice(0, CHECK_TEXT_MAX);
        this.message = `Called operation ${direction} failed validation at ${this.path}: ${this.reason}`;
      }
    };
    exports2.PulseCallValidationError = PulseCallValidationError;
    function validate(env, op, direction, value) {
      let r;
      try {
        r = env.check(op, direction, value);
      } catch {
        return (0, errors_1.fail)("PULSE_ERR_CALL", "callFailed");
      }
      if (!r.ok)
        throw new PulseCallValidationError(op, direction, r.path, r.message);
      return r.value;
    }
    async function callOperation(env, scope, name, input, depth) {
      scope.assertOpen();
      const op = typeof name === "string" ? env.operations.get(name) : void 0;
      if (op === void 0)
        (0, errors_1.fail)("PULSE_ERR_CALL", "callUnknown");
      if (depth > exports2.MAX_CALL_DEPTH)
        (0, errors_1.fail)("PULSE_ERR_BUDGET", "budgetDepth");
      if (scope.callsLeft <= 0)
        (0, errors_1.fail)("PULSE_ERR_BUDGET", "budgetCalls");
      scope.callsLeft -= 1;
      const h = op.handler;
      if (h.kind !== "javascript" && h.kind !== "static")
        (0, errors_1.fail)("PULSE_ERR_CALL", "callUnsupported");
      if (!(0, helpers_1.isPlainJson)(input))
        (0, errors_1.fail)("PULSE_ERR_CALL", "callFailed");
      const decoded = validate(env, op.name, "input", input);
      let out;
      if (h.kind === "static") {
        out = h.result;
      } else {
        const child = createContext(env, scope, op.name, depth);
        try {
          out = await scope.race(() => h.fn(child, decoded === void 0 ? {} : decoded));
        } catch (e) {
          throw scopeError(scope, e, "callFailed");
        }
      }
      const value = out === void 0 ? null : out;
      if (!(0, helpers_1.isPlainJson)(value))
        (0, errors_1.fail)("PULSE_ERR_CALL", "callFailed");
      return validate(env, op.name, "output", value);
    }
    var FAILED = Object.freeze({ ok: false });
    function outcomeOf(out) {
      const value = out === void 0 ? null : out;
      return (0, helpers_1.isPlainJson)(value) ? { ok: true, output: value } : FAILED;
    }
    async function settleAsync(scope, pending) {
      try {
        return outcomeOf(await scope.race(() => pending));
      } catch {
        return FAILED;
      } finally {
        scope.close();
      }
    }
    function createHandlerRunner(definition, options = {}, manifest) {
      const operations = new Map(definition.operations.map((o) => [o.name, o]));
      const origins = new Set(Object.values(definition.backends).map((b) => new URL(b.url).origin));
      let checker;
      const check = (op, direction, value) => {
        try {
          checker ??= engine_1.Engine.create(JSON.stringify({ tools: manifest ?? (0, compiler_1.compileRouter)(definition, { core: options.core }).manifest }), options.core);
          return checker.check(op, direction, value);
        } catch (e) {
          checker = void 0;
          throw e;
        }
      };
      const env = { definition, operations, origins, options, check, kv: options.kv ?? createMemoryKv() };
      const hasJavaScript = definition.operations.some((o) => o.handler.kind === "javascript");
      return Object.freeze({
        hasJavaScript,
        run(op, input, opts) {
          const target = operations.get(op);
          if (target === void 0 || target.handler.kind !== "javascript")
            return FAILED;
          const fn = target.handler.fn;
          const timeoutMs = typeof opts?.timeoutMs === "number" && Number.isFinite(opts.timeoutMs) ? opts.timeoutMs : 0;
          const budgetMs = Math.min(timeoutMs, definition.budgets.deadlineMs);
          if (!(budgetMs > 0))
            return FAILED;
          const host = opts[cancellation_1.CANCELLATION];
          const scope = new RequestScope(budgetMs, definition.budgets, host ?? opts.signal);
          let out;
          try {
            const responses = opts.inputResponses === void 0 ? NO_RESPONSES : frozenJson(opts.inputResponses);
            out = fn(createContext(env, scope, op, 0, responses, opts.progress), input === void 0 ? {} : input);
            if (!(0, thenable_1.isThenable)(out)) {
              scope.close();
              return outcomeOf(out);
            }
          } catch {
            scope.close();
            return FAILED;
          }
          return settleAsync(scope, out);
        }
      });
    }
  }
});

// router/bind.js
var require_bind = __commonJS({
  "router/bind.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.STATIC_LIMITS = void 0;
    exports2.toolSource = toolSource;
    exports2.assertNativeEligible = assertNativeEligible;
    exports2.staticOptions = staticOptions;
    exports2.mcp = mcp;
    var compiler_1 = require_compiler();
    var driver_1 = require_driver();
    var handler_1 = require_handler();
    var listener_1 = require_listener();
    var http_exchange_1 = require_http_exchange();
    var errors_1 = require_errors();
    var options_1 = require_options();
    var context_1 = require_context();
    var errors_2 = require_errors3();
    var router_1 = require_router();
    var SOURCE_KEYS = ["secrets", "kv", "log", "core"];
    function isRecord(v) {
      return typeof v === "object" && v !== null && !Array.isArray(v);
    }
    function contextOptions(o, onError) {
      const { secrets, kv, log } = o;
      if (secrets !== void 0 && typeof secrets !== "function")
        onError();
      if (log !== void 0 && typeof log !== "function")
        onError();
      if (kv !== void 0) {
        if (!isRecord(kv) || typeof kv.get !== "function" || typeof kv.put !== "function" || typeof kv.delete !== "function")
          onError();
      }
      return Object.freeze({
        secrets,
        kv,
        log
      });
    }
    function compile(router, core) {
      if (!(0, router_1.isEntityRouter)(router))
        (0, errors_2.fail)("PULSE_ERR_OPTIONS", "notRouter");
      return (0, compiler_1.compileRouter)((0, router_1.routerDefinition)(router), { core });
    }
    function toolSource(router, options) {
      const o = options ?? {};
      const bad = () => (0, errors_2.fail)("PULSE_ERR_OPTIONS", "toolSourceOptions");
      if (!isRecord(o) || Object.keys(o).some((k) => !SOURCE_KEYS.includes(k)))
        bad();
      const ctxOptions = contextOptions(o, bad);
      const core = o.core;
      const compiled = compile(router, core);
      const runner = (0, context_1.createHandlerRunner)((0, router_1.routerDefinition)(router), { ...ctxOptions, ...core === void 0 ? {} : { core } }, compiled.manifest);
      const base = { manifest: compiled.manifest, catalog: compiled.catalog, schemaRegistry: compiled.schemaRegistry };
      return Object.freeze(runner.hasJavaScript ? { ...base, handlers: runner } : base);
    }
    function assertNativeEligible(router) {
      const { catalog } = compile(router);
      const ineligible = catalog.operations.some((op) => !op.targets.includes("fastly-native") || !op.targets.includes("node-native")) || (0, router_1.routerDefinition)(router).operations.some((op) => op.handler.kind === "javascript");
      if (ineligible)
        (0, errors_2.fail)("PULSE_ERR_NATIVE_INELIGIBLE", "nativeIneligible");
    }
    exports2.STATIC_LIMITS = Object.freeze({
      requestBytes: 32768,
      responseBytes: 131072,
      toolResultBytes: 24576,
      deadlineMs: 5e3,
      depth: 32
    });
    var RUNTIME_KEYS = ["secrets", "kv", "log", "core"];
    var CORE_KEYS = [
      "serverInfo",
      "legacyProtocol",
      "allowedOrigins",
      "cors",
      "progress",
      "contentBlocks",
      "resources",
      "resourceTemplates",
      "prompts",
      "requestStateKey",
      "unsealedRequestState",
      "listCacheTtlMs",
      "listCacheScope",
      "serverCard",
      "fastlyLogEndpoint",
      "rateLimit"
    ];
    var NOT_STATIC = {
      path: "path: the static binding serves exactly POST /mcp",
      tools: "tools: the static binding serves its router's operations; catalog artifacts belong to the host adapters (createMcpNodeHandler, createMcpHttpHandler)",
      authorization: "authorization: the static binding has no authorization policy; OAuth admission belongs to the host adapters (createMcpNodeHandler, createMcpHttpHandler)"
    };
    function configFail(message) {
      throw new errors_1.PulseConfigError(message);
    }
    function builtinNodeModules() {
      const get = globalThis.process?.getBuiltinModule;
      if (typeof get !== "function")
        configFail("nodeListener: needs Node (20.16 or later); on a Fetch runtime serve handle(ctx)");
      return (0, listener_1.nodeModules)(get("node:http"), () => get("node:https"));
    }
    function staticLimits(v) {
      const out = { ...exports2.STATIC_LIMITS };
      if (v === void 0 || v === null)
        return out;
      if (!isRecord(v))
        return v;
      for (const [k, n] of Object.entries(v)) {
        if (n === void 0 || n === null)
          continue;
        const max = exports2.STATIC_LIMITS[k];
        if (max !== void 0 && typeof n === "number" && n > max)
          configFail(`limits.${k}: the static binding's ceiling is ${max}; limits may only lower it`);
        out[k] = n;
      }
      const given = v;
      if ((given.toolResultBytes === void 0 || given.toolResultBytes === null) && typeof out.responseBytes === "number") {
        out.toolResultBytes = Math.min(exports2.STATIC_LIMITS.toolResultBytes, out.responseBytes);
      }
      return out;
    }
    function staticOptions(o) {
      for (const key of Object.keys(o)) {
        if (o[key] === void 0 || key === "router" || key === "limits" || RUNTIME_KEYS.includes(key) || CORE_KEYS.includes(key))
          continue;
        configFail(NOT_STATIC[key] ?? `options: unknown key ${JSON.stringify(key)}`);
      }
      const out = { path: "/mcp", limits: staticLimits(o.limits) };
      for (const key of CORE_KEYS)
        if (o[key] !== void 0)
          out[key] = o[key];
      return out;
    }
    function mcp(options) {
      const o = options;
      if (!isRecord(o))
        configFail("options: must be a plain object");
      const given = staticOptions(o);
      if (!(0, router_1.isEntityRouter)(o.router))
        configFail("router: must be an EntityRouter (new EntityRouter(id))");
      const core = o.core;
      const tools = toolSource(o.router, { ...contextOptions(o, () => configFail("secrets, kv, log: secrets and log must be functions, kv a store with get, put and delete")), ...core === void 0 ? {} : { core } });
      const resolved = (0, options_1.resolveOptions)({ ...given, core, tools: { manifest: tools.manifest, handlers: tools.handlers } }, "host", "static");
      const nodeBuffer = globalThis.Buffer;
      const host = (0, driver_1.createHostCore)(resolved, nodeBuffer === void 0 ? {} : { copyOut: (view) => nodeBuffer.from(view) });
      let listener;
      return Object.freeze({
        handle(ctx) {
          if (!isRecord(ctx) || !(ctx.request instanceof Request))
            return Promise.reject(new errors_2.PulseRouterError("PULSE_ERR_OPTIONS", "handleContext"));
          return (0, handler_1.serveFetch)(host, ctx.request, ctx.clientAddress);
        },
        nodeListener() {
          if (listener === void 0) {
            const node = builtinNodeModules();
            listener = (0, listener_1.nodeListener)({ ...host, exchange: (0, http_exchange_1.nodeExchange)(node) }, node);
          }
          return listener;
        }
      });
    }
  }
});

// router/jsonrpc.js
var require_jsonrpc = __commonJS({
  "router/jsonrpc.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.jsonRpc = jsonRpc;
    var driver_1 = require_driver();
    var engine_1 = require_engine();
    var handler_1 = require_handler();
    var options_1 = require_options();
    var compiler_1 = require_compiler();
    var context_1 = require_context();
    var errors_1 = require_errors3();
    var router_1 = require_router();
    var KEYS = ["path", "limits", "secrets", "kv", "log", "core"];
    function isRecord(v) {
      return typeof v === "object" && v !== null && !Array.isArray(v);
    }
    function jsonRpc(router, options) {
      const o = options ?? {};
      if (!(0, router_1.isEntityRouter)(router) || !isRecord(o) || Object.keys(o).some((k) => !KEYS.includes(k)))
        (0, errors_1.fail)("PULSE_ERR_OPTIONS", "jsonRpcOptions");
      const def = (0, router_1.routerDefinition)(router);
      const compiled = (0, compiler_1.compileRouter)(def, { core: o.core });
      const runner = (0, context_1.createHandlerRunner)(def, { secrets: o.secrets, kv: o.kv, log: o.log, ...o.core === void 0 ? {} : { core: o.core } }, compiled.manifest);
      const resolved = (0, options_1.resolveOptions)({ path: o.path ?? "/", limits: o.limits, tools: { manifest: compiled.manifest }, core: o.core }, "host", "static");
      const host = Object.freeze({
        engine: engine_1.Engine.create(`{"profile":"jsonrpc",${resolved.configJson.slice(1)}`, resolved.core),
        requestBytes: resolved.requestBytes,
        handlers: runner.hasJavaScript ? runner : void 0,
        exchange: driver_1.fetchExchange
      });
      return Object.freeze({ fetch: (request) => (0, handler_1.serveFetch)(host, request) });
    }
  }
});

// router/index.js
var require_router2 = __commonJS({
  "router/index.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.jsonRpc = exports2.STATIC_LIMITS = exports2.mcp = exports2.assertNativeEligible = exports2.toolSource = exports2.isPulseRouterError = exports2.PulseRouterError = exports2.codec = exports2.MAX_OPERATIONS = exports2.DEFAULT_BUDGETS = exports2.EntityRouter = void 0;
    var router_1 = require_router();
    Object.defineProperty(exports2, "EntityRouter", { enumerable: true, get: function() {
      return router_1.EntityRouter;
    } });
    Object.defineProperty(exports2, "DEFAULT_BUDGETS", { enumerable: true, get: function() {
      return router_1.DEFAULT_BUDGETS;
    } });
    Object.defineProperty(exports2, "MAX_OPERATIONS", { enumerable: true, get: function() {
      return router_1.MAX_OPERATIONS;
    } });
    var codecs_1 = require_codecs();
    Object.defineProperty(exports2, "codec", { enumerable: true, get: function() {
      return codecs_1.codec;
    } });
    var errors_1 = require_errors3();
    Object.defineProperty(exports2, "PulseRouterError", { enumerable: true, get: function() {
      return errors_1.PulseRouterError;
    } });
    Object.defineProperty(exports2, "isPulseRouterError", { enumerable: true, get: function() {
      return errors_1.isPulseRouterError;
    } });
    var bind_1 = require_bind();
    Object.defineProperty(exports2, "toolSource", { enumerable: true, get: function() {
      return bind_1.toolSource;
    } });
    Object.defineProperty(exports2, "assertNativeEligible", { enumerable: true, get: function() {
      return bind_1.assertNativeEligible;
    } });
    Object.defineProperty(exports2, "mcp", { enumerable: true, get: function() {
      return bind_1.mcp;
    } });
    Object.defineProperty(exports2, "STATIC_LIMITS", { enumerable: true, get: function() {
      return bind_1.STATIC_LIMITS;
    } });
    var jsonrpc_1 = require_jsonrpc();
    Object.defineProperty(exports2, "jsonRpc", { enumerable: true, get: function() {
      return jsonrpc_1.jsonRpc;
    } });
  }
});

// handlers/index.js
var require_handlers = __commonJS({
  "handlers/index.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.LOG_RECORDS_PER_REQUEST = exports2.KV_OPS_PER_REQUEST = exports2.MAX_CALL_DEPTH = exports2.createMemoryKv = exports2.createHandlerRunner = exports2.isNativeHandler = exports2.handlers = void 0;
    var helpers_1 = require_helpers();
    Object.defineProperty(exports2, "handlers", { enumerable: true, get: function() {
      return helpers_1.handlers;
    } });
    Object.defineProperty(exports2, "isNativeHandler", { enumerable: true, get: function() {
      return helpers_1.isNativeHandler;
    } });
    var context_1 = require_context();
    Object.defineProperty(exports2, "createHandlerRunner", { enumerable: true, get: function() {
      return context_1.createHandlerRunner;
    } });
    Object.defineProperty(exports2, "createMemoryKv", { enumerable: true, get: function() {
      return context_1.createMemoryKv;
    } });
    Object.defineProperty(exports2, "MAX_CALL_DEPTH", { enumerable: true, get: function() {
      return context_1.MAX_CALL_DEPTH;
    } });
    Object.defineProperty(exports2, "KV_OPS_PER_REQUEST", { enumerable: true, get: function() {
      return context_1.KV_OPS_PER_REQUEST;
    } });
    Object.defineProperty(exports2, "LOG_RECORDS_PER_REQUEST", { enumerable: true, get: function() {
      return context_1.LOG_RECORDS_PER_REQUEST;
    } });
  }
});

// pulse.js
var require_pulse = __commonJS({
  "pulse.js"(exports2) {
    "use strict";
    Object.defineProperty(exports2, "__esModule", { value: true });
    exports2.createMemoryKv = exports2.handlers = exports2.ManifestError = exports2.isPulseRouterError = exports2.PulseRouterError = exports2.PulseCoreError = exports2.PulseConfigError = exports2.PulseError = exports2.REQUEST_CHANNEL = exports2.STATIC_LIMITS = exports2.DEFAULT_BUDGETS = exports2.jsonRpc = exports2.mcp = exports2.assertNativeEligible = exports2.codec = exports2.EntityRouter = void 0;
    var router_1 = require_router2();
    Object.defineProperty(exports2, "EntityRouter", { enumerable: true, get: function() {
      return router_1.EntityRouter;
    } });
    Object.defineProperty(exports2, "codec", { enumerable: true, get: function() {
      return router_1.codec;
    } });
    Object.defineProperty(exports2, "assertNativeEligible", { enumerable: true, get: function() {
      return router_1.assertNativeEligible;
    } });
    Object.defineProperty(exports2, "mcp", { enumerable: true, get: function() {
      return router_1.mcp;
    } });
    Object.defineProperty(exports2, "jsonRpc", { enumerable: true, get: function() {
      return router_1.jsonRpc;
    } });
    Object.defineProperty(exports2, "DEFAULT_BUDGETS", { enumerable: true, get: function() {
      return router_1.DEFAULT_BUDGETS;
    } });
    Object.defineProperty(exports2, "STATIC_LIMITS", { enumerable: true, get: function() {
      return router_1.STATIC_LIMITS;
    } });
    var channel_1 = require_channel();
    Object.defineProperty(exports2, "REQUEST_CHANNEL", { enumerable: true, get: function() {
      return channel_1.REQUEST_CHANNEL;
    } });
    var errors_1 = require_errors();
    Object.defineProperty(exports2, "PulseError", { enumerable: true, get: function() {
      return errors_1.PulseError;
    } });
    Object.defineProperty(exports2, "PulseConfigError", { enumerable: true, get: function() {
      return errors_1.PulseConfigError;
    } });
    Object.defineProperty(exports2, "PulseCoreError", { enumerable: true, get: function() {
      return errors_1.PulseCoreError;
    } });
    var errors_2 = require_errors3();
    Object.defineProperty(exports2, "PulseRouterError", { enumerable: true, get: function() {
      return errors_2.PulseRouterError;
    } });
    Object.defineProperty(exports2, "isPulseRouterError", { enumerable: true, get: function() {
      return errors_2.isPulseRouterError;
    } });
    var errors_3 = require_errors2();
    Object.defineProperty(exports2, "ManifestError", { enumerable: true, get: function() {
      return errors_3.ManifestError;
    } });
    var handlers_1 = require_handlers();
    Object.defineProperty(exports2, "handlers", { enumerable: true, get: function() {
      return handlers_1.handlers;
    } });
    Object.defineProperty(exports2, "createMemoryKv", { enumerable: true, get: function() {
      return handlers_1.createMemoryKv;
    } });
  }
});

// ../node/exports.js
module.exports = { get "."() {
  return require_index();
}, get "./node"() {
  return require_node();
}, get "./pulse"() {
  return require_pulse();
} };
