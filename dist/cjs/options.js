"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.jsonText = jsonText;
exports.resolveOptions = resolveOptions;
/**
 * Handler options → the core's configuration JSON (docs/contracts.md#engine-configuration). The core judges every
 * plain-data option (path, allowedOrigins, serverInfo, limits, legacyProtocol, unknown keys) and is
 * the one authority: its message names the option and the entry, never the value, and reaches the
 * caller as `PulseConfigError` when the engine is built. This layer checks only what the core cannot
 * see: functions and objects (`tools`, `core`), and that the plain data is plain JSON at all.
 */
const errors_1 = require("./errors");
const limits_1 = require("./limits");
const defaults_1 = require("./core/generated/defaults");
const artifacts_1 = require("./catalog/artifacts");
/** `maxEntries` and `maxBytes` of an option's object, read back from its snapshot; the core's defaults when absent. */
function storeBounds(o) {
    const n = (v, fallback) => (typeof v === 'number' ? v : fallback);
    return { maxEntries: n(o.maxEntries, defaults_1.HOST_STORE_DEFAULTS.maxEntries), maxBytes: n(o.maxBytes, defaults_1.HOST_STORE_DEFAULTS.maxBytes) };
}
/** Configuration members the hosts set themselves (`jsonRpc`), never taken from user options. */
const INTERNAL = new Set(['profile']);
/** A key shown in a message: short printable ASCII only, like the core's rule. */
const SHOWN_KEY = /^[\x20-\x7e]{1,64}$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function fail(message) {
    throw new errors_1.PulseConfigError(message);
}
/** A plain object of any realm: prototype `Object.prototype`-like or `null`, never a class instance. */
function isPlainObject(v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
        return false;
    const proto = Object.getPrototypeOf(v);
    return proto === null || Object.getPrototypeOf(proto) === null;
}
/** `parent.key`, `parent["a b"]`, or `parent[an unnamed key]` for a key not fit to show. */
function member(parent, key) {
    if (IDENTIFIER.test(key) && key.length <= 64)
        return parent === '' ? key : `${parent}.${key}`;
    const shown = SHOWN_KEY.test(key) ? JSON.stringify(key) : 'an unnamed key';
    return `${parent === '' ? 'options' : parent}[${shown}]`;
}
/**
 * The JSON text of a plain-data option, exactly as given (members whose value is `undefined` are
 * absent, as in JSON.stringify). Throws `PulseConfigError` naming the offending entry when the value
 * cannot be plain JSON; whether it is a valid option is the core's decision.
 */
function jsonText(value, where, onFunction) {
    const ancestors = new Set();
    const walk = (v, at) => {
        switch (typeof v) {
            case 'string':
                if (LONE_SURROGATE.test(v))
                    fail(`${at}: must be well-formed Unicode text, without lone surrogates`);
                return JSON.stringify(v);
            case 'number':
                if (!Number.isFinite(v))
                    fail(`${at}: must be a finite number`);
                return JSON.stringify(v);
            case 'boolean':
                return v ? 'true' : 'false';
            case 'object':
                break;
            case 'function':
                return fail(`${at}: must be plain JSON data, not a function${onFunction === undefined ? '' : `; ${onFunction}`}`);
            default:
                // bigint, symbol, undefined (an array element)
                return fail(`${at}: must be plain JSON data, not ${typeof v === 'bigint' ? 'a BigInt' : typeof v === 'undefined' ? 'undefined' : 'a symbol'}`);
        }
        if (v === null)
            return 'null';
        if (ancestors.has(v))
            fail(`${at}: must be plain JSON data, not a cyclic structure`);
        ancestors.add(v);
        let text;
        if (Array.isArray(v)) {
            const items = [];
            for (let i = 0; i < v.length; i++)
                items.push(walk(v[i], `${at}[${i}]`));
            text = `[${items.join(',')}]`;
        }
        else {
            if (!isPlainObject(v))
                fail(`${at}: must be plain JSON data, not a class instance`);
            const members = [];
            for (const key of Object.keys(v)) {
                const where = member(at, key);
                if (LONE_SURROGATE.test(key))
                    fail(`${where}: the key must be well-formed Unicode text, without lone surrogates`);
                const item = v[key];
                if (item !== undefined)
                    members.push(`${JSON.stringify(key)}:${walk(item, where)}`);
            }
            text = `{${members.join(',')}}`;
        }
        ancestors.delete(v);
        return text;
    };
    try {
        return walk(value, where);
    }
    catch (e) {
        // Only a structure nested past the call stack gets here without a message of its own.
        if (e instanceof RangeError)
            fail(`${where}: is nested too deeply or too large to be plain JSON data`);
        throw e;
    }
}
/** Where the host adapters send anything executable. */
const USE_MCP = 'serve a router and its handlers with mcp() from @pulse-compute/mcp/pulse';
/** Options only the static binding has, and what of a handler they concern (the adapters run none). */
const STATIC_ONLY = { progress: 'reported by handlers', contentBlocks: 'returned by handlers' };
/**
 * `tools` of the host adapters: catalog artifacts only. A router, a tool source, a manifest or a
 * handler runner would run code (or a compiled program) in the adapter, which the adapters never do.
 */
function facadeTools(value, limits, target) {
    if (!isPlainObject(value) || !('catalog' in value) || 'manifest' in value || 'handlers' in value || 'runHandler' in value) {
        fail(`tools: must be catalog artifacts { catalog, schemas, routerId, target, endpoint }; the host adapters run no application code: ${USE_MCP}`);
    }
    checkSecret(value.backendBearerToken, 'tools.backendBearerToken', target, 'token', 'the token itself');
    // Snapshotted as JSON first: a function anywhere in the artifacts is named, with where code belongs.
    const artifacts = JSON.parse(jsonText(value, 'tools', USE_MCP));
    return { manifestJson: JSON.stringify((0, artifacts_1.catalogManifest)(artifacts, limits)), handlers: undefined };
}
/** `tools` of the static binding, as `mcp()` builds it: the compiled manifest and its runner. */
function staticTools(value) {
    const { manifest, handlers } = value;
    return { manifestJson: jsonText(manifest, 'tools.manifest'), handlers };
}
function resolveCore(value) {
    const wa = globalThis.WebAssembly;
    const ok = value instanceof ArrayBuffer ||
        ArrayBuffer.isView(value) ||
        (wa !== undefined && value instanceof wa.Module);
    if (!ok)
        fail('core: must be a WebAssembly.Module of pulse_core.wasm or its bytes');
    // Bytes are copied so later mutation by the caller cannot change the handler.
    if (value instanceof ArrayBuffer)
        return value.slice(0);
    if (ArrayBuffer.isView(value))
        return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
    return value;
}
/**
 * Where a secret option may come from, per target: one rule, so no secret ends up in an artifact.
 * `rule` says what the host takes instead of a reference.
 */
function checkSecret(value, option, target, noun, rule) {
    if (target === 'host' && isPlainObject(value))
        fail(`${option}: a secret-store reference ({ secretStore, key }) is read by the Fastly Native build only; this host takes ${rule}`);
    if (target === 'native' && typeof value === 'string')
        fail(`${option}: a ${noun} given as text would be compiled into main.wasm; put it in a Fastly secret store and name it: { secretStore, key }`);
}
/**
 * Snapshots `options` into the configuration JSON; throws `PulseConfigError` for what only
 * TypeScript can see. Every other option error comes from the core when the engine is built.
 */
function resolveOptions(options, target = 'host', binding = 'facade') {
    const o = options === undefined ? {} : options;
    if (!isPlainObject(o))
        fail('options: must be a plain object');
    const onFunction = binding === 'facade' ? USE_MCP : undefined;
    const members = [];
    let toolsValue;
    let core;
    const limits = { requestBytes: limits_1.DEFAULT_LIMITS.requestBytes, responseBytes: limits_1.DEFAULT_LIMITS.responseBytes, deadlineMs: limits_1.DEFAULT_LIMITS.deadlineMs };
    let introspectionCache;
    let rateLimitStore;
    for (const key of Object.keys(o)) {
        const value = o[key];
        if (value === undefined)
            continue;
        // tools and core are TypeScript's own; every other key goes to the core as given.
        if (key === 'tools')
            toolsValue = value;
        else if (key === 'core')
            core = resolveCore(value);
        else {
            if (INTERNAL.has(key))
                fail(`options: unknown key ${JSON.stringify(key)}`);
            if (binding === 'facade' && STATIC_ONLY[key] !== undefined) {
                fail(`${key}: ${STATIC_ONLY[key]}, which the host adapters do not run; it is an option of mcp() from @pulse-compute/mcp/pulse`);
            }
            if (key === 'requestStateKey')
                checkSecret(value, 'requestStateKey', target, 'key', 'the key itself (at least 32 bytes of text)');
            if (key === 'authorization' && isPlainObject(value))
                checkSecret(value.clientSecret, 'authorization.clientSecret', target, 'secret', 'the secret itself');
            const where = member('', key);
            if (LONE_SURROGATE.test(key))
                fail(`${where}: the key must be well-formed Unicode text, without lone surrogates`);
            const text = jsonText(value, where, onFunction);
            members.push(`${JSON.stringify(key)}:${text}`);
            if (key === 'limits') {
                // Read back from the snapshot: the core will judge the same values (or reject the options).
                const given = JSON.parse(text);
                for (const k of ['requestBytes', 'responseBytes', 'deadlineMs']) {
                    const v = given?.[k];
                    if (typeof v === 'number')
                        limits[k] = v;
                }
            }
            // Read back from the snapshot, as the limits: the core judges the same values.
            if (key === 'authorization') {
                const cache = JSON.parse(text)?.cache;
                if (isPlainObject(cache))
                    introspectionCache = storeBounds(cache);
            }
            if (key === 'rateLimit') {
                const given = JSON.parse(text);
                if (isPlainObject(given))
                    rateLimitStore = storeBounds(given);
            }
        }
    }
    const tools = toolsValue === undefined ? undefined : binding === 'facade' ? facadeTools(toolsValue, limits, target) : staticTools(toolsValue);
    if (tools !== undefined)
        members.push(`"tools":${tools.manifestJson}`);
    const requestBytes = limits.requestBytes;
    return Object.freeze({
        configJson: `{${members.join(',')}}`,
        requestBytes,
        handlers: tools?.handlers,
        core,
        ...(introspectionCache === undefined ? {} : { introspectionCache }),
        ...(rateLimitStore === undefined ? {} : { rateLimitStore }),
    });
}
