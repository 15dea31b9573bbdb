// Reads fastly.toml into the host's view of the service: backends (loopback only), dictionaries and
// config stores, secret stores, KV stores and log endpoints, all from [local_server] (and
// [setup.log_endpoints] for endpoint names), the way Viceroy documents them.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readToml } from './toml.mjs';

export class HostConfigError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function backendOf(name, spec) {
  const raw = typeof spec === 'string' ? spec : spec && spec.url;
  if (typeof raw !== 'string') throw new HostConfigError('BACKEND_URL', `backend ${name}: url is required`);
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new HostConfigError('BACKEND_URL', `backend ${name}: url is not a valid URL`);
  }
  if (url.protocol !== 'http:') throw new HostConfigError('BACKEND_SCHEME', `backend ${name}: only http:// loopback backends are served locally`);
  if (!LOOPBACK.has(url.hostname)) throw new HostConfigError('BACKEND_NOT_LOOPBACK', `backend ${name}: refused, the local host only reaches loopback addresses`);
  return {
    name,
    host: url.hostname === '[::1]' ? '::1' : url.hostname,
    port: Number(url.port || 80),
    pathPrefix: url.pathname.replace(/\/$/, ''),
    authority: url.host,
    overrideHost: typeof spec === 'object' && typeof spec.override_host === 'string' ? spec.override_host : null,
  };
}

function readData(base, entry, what) {
  if (typeof entry.data === 'string') return Buffer.from(entry.data, 'utf8');
  if (typeof entry.file === 'string') return readFileSync(resolve(base, entry.file));
  if (typeof entry.env === 'string') {
    const v = process.env[entry.env];
    if (v === undefined) throw new HostConfigError('STORE_ENV', `${what}: environment variable is not set`);
    return Buffer.from(v, 'utf8');
  }
  throw new HostConfigError('STORE_ENTRY', `${what}: entry needs data, file or env`);
}

function keyValueStore(base, name, spec, what) {
  const out = new Map();
  if (Array.isArray(spec)) {
    for (const e of spec) {
      if (!e || typeof e.key !== 'string') throw new HostConfigError('STORE_ENTRY', `${what} ${name}: entry needs a key`);
      out.set(e.key, { data: readData(base, e, `${what} ${name}`), metadata: typeof e.metadata === 'string' ? e.metadata : '' });
    }
    return out;
  }
  if (spec && typeof spec === 'object' && typeof spec.file === 'string') {
    const json = JSON.parse(readFileSync(resolve(base, spec.file), 'utf8'));
    for (const [k, v] of Object.entries(json)) out.set(k, { data: Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)), metadata: '' });
    return out;
  }
  throw new HostConfigError('STORE_FORMAT', `${what} ${name}: expected an array of entries or a file`);
}

function dictionary(base, name, spec) {
  const out = new Map();
  if (spec && spec.format === 'inline-toml' && spec.contents && typeof spec.contents === 'object') {
    for (const [k, v] of Object.entries(spec.contents)) out.set(k, String(v));
    return out;
  }
  if (spec && spec.format === 'json' && typeof spec.file === 'string') {
    const json = JSON.parse(readFileSync(resolve(base, spec.file), 'utf8'));
    for (const [k, v] of Object.entries(json)) out.set(k, String(v));
    return out;
  }
  throw new HostConfigError('STORE_FORMAT', `config store ${name}: expected format "inline-toml" with contents, or "json" with file`);
}

export function loadHostConfig(tomlPath) {
  const manifest = readToml(tomlPath);
  const base = dirname(tomlPath);
  const ls = manifest.local_server || {};
  const backends = new Map();
  for (const [name, spec] of Object.entries(ls.backends || {})) backends.set(name, backendOf(name, spec));
  const configStores = new Map();
  for (const [name, spec] of Object.entries(ls.config_stores || {})) configStores.set(name, dictionary(base, name, spec));
  const dictionaries = new Map();
  for (const [name, spec] of Object.entries(ls.dictionaries || {})) dictionaries.set(name, dictionary(base, name, spec));
  const secretStores = new Map();
  for (const [name, spec] of Object.entries(ls.secret_stores || {})) secretStores.set(name, keyValueStore(base, name, spec, 'secret store'));
  const kvStores = new Map();
  for (const [name, spec] of Object.entries(ls.kv_stores || ls.object_stores || {})) kvStores.set(name, keyValueStore(base, name, spec, 'kv store'));
  // Viceroy accepts any endpoint name; when the manifest declares endpoints, only those are opened.
  const declared = manifest.setup && manifest.setup.log_endpoints ? Object.keys(manifest.setup.log_endpoints) : null;
  return {
    name: typeof manifest.name === 'string' ? manifest.name : 'service',
    backends,
    configStores,
    dictionaries,
    secretStores,
    kvStores,
    logEndpoints: declared,
  };
}

/** The part of the configuration a worker needs (structured-clone friendly). */
export function workerView(cfg) {
  const entries = (m) => [...m.entries()];
  return {
    backends: [...cfg.backends.keys()],
    configStores: entries(cfg.configStores).map(([n, m]) => [n, entries(m)]),
    dictionaries: entries(cfg.dictionaries).map(([n, m]) => [n, entries(m)]),
    secretStores: entries(cfg.secretStores).map(([n, m]) => [n, entries(m).map(([k, v]) => [k, v.data])]),
    logEndpoints: cfg.logEndpoints,
  };
}
