/**
 * The manifest compiler: RouterDefinition (plain data, handlers never called) → the manifest the
 * core executes plus the two catalog artifacts. Every rule the core re-checks at construction is
 * checked here first, so a bad router fails at build time with a message naming the operation.
 * Format: ./README.md.
 */
import { DEFAULT_LIMITS } from '../limits';
import type { CodecDescriptor } from '../router/codec-types';
import type { HandlerDefinition, OperationDefinition, RouterDefinition } from '../router/definition';
import { buildCorpusIndex } from './corpus';
import { fail } from './errors';
import { compileProgram, MAX_PROJECTION_NODES, noInputSchema, project, type Projection } from './projection';
import { sha256Hex } from './sha256';
import {
  CATALOG_FORMAT_VERSION,
  MANIFEST_FORMAT_VERSION,
  SCHEMA_REGISTRY_FORMAT_VERSION,
  type CatalogOperation,
  type CompileOptions,
  type CompiledRouter,
  type EntitiesCatalog,
  type Manifest,
  type ManifestCorpus,
  type ManifestHandler,
  type ManifestTool,
  type SchemaRegistry,
  type Target,
} from './types';

export * from './types';
export { ManifestError } from './errors';
export { tokenize } from './corpus';
export { sha256Hex } from './sha256';

export const MAX_TOOLS = 128;
/**
 * Bytes of the `tools/list` reply that are not the tools array: envelope, resultType, ttlMs,
 * cacheScope and `_meta.serverInfo`. The core keeps the same reserve (manifest.rs LIST_RESERVE).
 */
export const LIST_RESERVE = 2048;
export const DEFAULT_TOP_K = 10;
export const MAX_TOP_K = 64;
export const DEFAULT_CORPUS_MAX_BYTES = 16384;
const MAX_BYTES_CEILING = 1048576;
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const NATIVE_TARGETS: readonly Target[] = ['fastly-native', 'node', 'workerd'];
const JS_TARGETS: readonly Target[] = ['node', 'workerd'];

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Hash of an artifact: sha256 of its compact JSON with the `hash` member left out. */
function withHash<T extends { hash: string }>(body: Omit<T, 'hash'>, first: readonly string[]): T {
  const hash = `sha256:${sha256Hex(JSON.stringify(body))}`;
  // `hash` goes right after the identifying members; the rest keeps its order.
  const out: Record<string, unknown> = {};
  for (const k of first) out[k] = (body as Record<string, unknown>)[k];
  out.hash = hash;
  for (const [k, v] of Object.entries(body)) if (!first.includes(k)) out[k] = v;
  return out as T;
}

/** Checks that a static result is plain, finite, acyclic JSON and returns its text. */
function staticJson(value: unknown, where: string): string {
  const seen = new Set<unknown>();
  const check = (v: unknown, depth: number): void => {
    if (depth > 64) fail(`${where}: static result nests too deeply`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) fail(`${where}: static result contains a non-finite number`);
      return;
    }
    if (typeof v !== 'object' || seen.has(v)) fail(`${where}: static result must be plain acyclic JSON`);
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x) => check(x, depth + 1));
    else {
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) fail(`${where}: static result must be plain acyclic JSON`);
      for (const x of Object.values(v as object)) check(x, depth + 1);
    }
    seen.delete(v);
  };
  check(value, 0);
  return JSON.stringify(value);
}

function backendUrl(base: string, path: string, where: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return fail(`${where}: backend url is not an absolute URL`);
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)))
    fail(`${where}: backend url must be https or loopback http`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    fail(`${where}: backend url must carry no credentials, query or fragment`);
  if (!/^\/[A-Za-z0-9\-._~/]*$/.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
    fail(`${where}: backend path must be an absolute path of unreserved characters without dot segments`);
  return url.origin + url.pathname.replace(/\/+$/, '') + path;
}

/** The object field a corpus action reads, checked for its codec kind. */
function requireField(input: CodecDescriptor | undefined, name: string, kinds: readonly string[], required: boolean, where: string): void {
  const f = input?.kind === 'object' ? input.fields[name] : undefined;
  if (f === undefined) {
    if (required) fail(`${where}: this corpus action needs an input field "${name}"`);
    return;
  }
  if (!kinds.includes(f.codec.kind) || (required && f.optional === true))
    fail(`${where}: input field "${name}" must be ${required ? 'a required' : 'an'} ${kinds.join(' or ')} field`);
}

function bounded(v: unknown, dflt: number | undefined, lo: number, hi: number, what: string, where: string): number {
  const n = v ?? dflt;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < lo || n > hi) fail(`${where}: ${what} must be an integer from ${lo} to ${hi}`);
  return n;
}

function compileHandler(op: OperationDefinition, def: RouterDefinition, where: string): ManifestHandler {
  const h: HandlerDefinition = op.handler;
  if (!isPlainObject(h)) fail(`${where}: handler must be a handler definition`);
  switch (h.kind) {
    case 'static':
      return op.output === undefined ? { kind: 'static' } : { kind: 'static', result: staticJson(h.result, where) };
    case 'corpus': {
      if (!Object.prototype.hasOwnProperty.call(def.corpora, h.corpus)) fail(`${where}: corpus is not declared on the router`);
      const topK = bounded(h.topK, DEFAULT_TOP_K, 1, MAX_TOP_K, 'topK', where);
      const maxBytes = bounded(h.maxBytes, DEFAULT_CORPUS_MAX_BYTES, 256, MAX_BYTES_CEILING, 'maxBytes', where);
      if (h.action === 'search') {
        requireField(op.input, 'query', ['string'], true, where);
        requireField(op.input, 'limit', ['u32', 'i32'], false, where);
      } else if (h.action === 'read') {
        requireField(op.input, 'id', ['string', 'enum'], true, where);
      } else if (h.action === 'list') {
        requireField(op.input, 'collection', ['string', 'enum'], false, where);
        requireField(op.input, 'limit', ['u32', 'i32'], false, where);
      } else fail(`${where}: corpus action must be search, read or list`);
      return { kind: 'corpus', corpus: h.corpus, action: h.action, topK, maxBytes };
    }
    case 'backend': {
      if (!Object.prototype.hasOwnProperty.call(def.backends, h.backend)) fail(`${where}: backend is not declared on the router`);
      if (!METHODS.includes(h.method)) fail(`${where}: backend method must be one of ${METHODS.join(', ')}`);
      if (h.method === 'GET' && op.input !== undefined) fail(`${where}: a GET backend call carries no body, so the operation must take no input`);
      const url = backendUrl(def.backends[h.backend]!.url, h.path, where);
      const maxBytes = bounded(h.maxBytes, undefined, 1, MAX_BYTES_CEILING, 'maxBytes', where);
      const timeoutMs = bounded(h.timeoutMs, undefined, 1, def.budgets.deadlineMs, 'timeoutMs', where);
      return { kind: 'backend', backend: h.backend, method: h.method, url, maxBytes, timeoutMs };
    }
    case 'javascript':
      if (typeof h.fn !== 'function') fail(`${where}: javascript handler must be a function`);
      return { kind: 'javascript' };
    default:
      return fail(`${where}: unknown handler kind`);
  }
}

export function compileRouter(def: RouterDefinition, opts: CompileOptions = {}): CompiledRouter {
  const responseBytes = opts.responseBytes ?? DEFAULT_LIMITS.responseBytes;
  const requestBytes = opts.requestBytes ?? DEFAULT_LIMITS.requestBytes;
  if (typeof def.id !== 'string' || !NAME.test(def.id)) fail('router id must be 1-128 characters of A-Za-z0-9_.-');
  if (!Array.isArray(def.operations)) fail('router operations must be a list');
  if (def.operations.length > MAX_TOOLS) fail(`router declares ${def.operations.length} operations; at most ${MAX_TOOLS} tools are allowed`);
  const deadlineMs = def.budgets?.deadlineMs;
  if (typeof deadlineMs !== 'number' || !Number.isInteger(deadlineMs) || deadlineMs < 1) fail('router budgets.deadlineMs must be a positive integer');

  const names = new Set<string>();
  const tools: ManifestTool[] = [];
  const listed: Record<string, unknown>[] = [];
  const catalogOps: CatalogOperation[] = [];
  const schemas: { id: string; schema: unknown }[] = [];
  const usedCorpora = new Set<string>();

  for (const op of def.operations) {
    if (typeof op.name !== 'string' || !NAME.test(op.name)) fail('operation name must be 1-128 characters of A-Za-z0-9_.-');
    const where = `operation "${op.name}"`;
    if (names.has(op.name)) fail(`${where}: duplicate operation name`);
    names.add(op.name);
    for (const k of ['title', 'description'] as const)
      if (op[k] !== undefined && typeof op[k] !== 'string') fail(`${where}: ${k} must be a string`);
    const hints: Record<string, boolean> = {};
    if (op.hints !== undefined) {
      if (!isPlainObject(op.hints)) fail(`${where}: hints must be an object`);
      for (const k of Object.keys(op.hints))
        if (!(HINTS as readonly string[]).includes(k)) fail(`${where}: unknown hint "${k}"; only the four boolean MCP hints are allowed`);
      for (const k of HINTS) {
        const v = op.hints[k];
        if (v === undefined) continue;
        if (typeof v !== 'boolean') fail(`${where}: hint ${k} must be a boolean`);
        hints[k] = v;
      }
    }
    if (op.input !== undefined && op.input.kind !== 'object') fail(`${where}: input must be an object codec`);

    const input: Projection = op.input === undefined ? noInputSchema() : project(op.input, 'input', `${where} input`);
    const output: Projection | undefined = op.output === undefined ? undefined : project(op.output, 'output', `${where} output`);
    if (input.nodes + (output?.nodes ?? 0) > MAX_PROJECTION_NODES)
      fail(`${where}: schema projection exceeds ${MAX_PROJECTION_NODES} nodes`);
    const handler = compileHandler(op, def, where);
    if (handler.kind === 'corpus') usedCorpora.add(handler.corpus);

    tools.push({
      name: op.name,
      input: op.input === undefined ? null : compileProgram(op.input, `${where} input`),
      output: op.output === undefined ? null : compileProgram(op.output, `${where} output`),
      handler,
    });

    const tool: Record<string, unknown> = { name: op.name };
    if (op.title !== undefined) tool.title = op.title;
    if (op.description !== undefined) tool.description = op.description;
    tool.inputSchema = input.schema;
    if (output !== undefined) tool.outputSchema = output.schema;
    if (Object.keys(hints).length > 0) tool.annotations = hints;
    listed.push(tool);

    const inputId = `${op.name}#input`;
    const outputId = output === undefined ? null : `${op.name}#output`;
    schemas.push({ id: inputId, schema: input.schema });
    if (output !== undefined) schemas.push({ id: outputId!, schema: output.schema });
    const entry: Record<string, unknown> = { name: op.name };
    if (op.title !== undefined) entry.title = op.title;
    if (op.description !== undefined) entry.description = op.description;
    if (Object.keys(hints).length > 0) entry.hints = hints;
    Object.assign(entry, {
      input: inputId,
      output: outputId,
      handler: handler.kind,
      targets: handler.kind === 'javascript' ? JS_TARGETS : NATIVE_TARGETS,
    });
    catalogOps.push(entry as unknown as CatalogOperation);
  }

  const list = JSON.stringify(listed);
  const listBytes = utf8Length(list);
  if (listBytes + LIST_RESERVE + requestBytes > responseBytes)
    fail(`tools/list is ${listBytes} bytes; with ${LIST_RESERVE} bytes of metadata and room for a ${requestBytes}-byte id it exceeds the ${responseBytes}-byte response budget`);

  const corpora: Record<string, ManifestCorpus> = {};
  for (const name of [...usedCorpora].sort()) corpora[name] = buildCorpusIndex(def.corpora[name]!);

  const catalog = withHash<EntitiesCatalog>(
    { formatVersion: CATALOG_FORMAT_VERSION, kind: 'pulse.entities-catalog', routerId: def.id, operations: catalogOps },
    ['formatVersion', 'kind'],
  );
  const schemaRegistry = withHash<SchemaRegistry>(
    { formatVersion: SCHEMA_REGISTRY_FORMAT_VERSION, kind: 'pulse.schema-json-registry', routerId: def.id, schemas },
    ['formatVersion', 'kind'],
  );
  const manifest: Manifest = {
    formatVersion: MANIFEST_FORMAT_VERSION,
    routerId: def.id,
    catalogHash: catalog.hash,
    deadlineMs,
    list,
    tools,
    corpora,
  };
  return { manifest, catalog, schemaRegistry };
}

/** The files the CLI writes, as text: compact manifest, readable (2-space) catalog artifacts. */
export function artifactFiles(compiled: CompiledRouter): Record<'manifest.json' | 'entities-catalog.json' | 'schema-json-registry.json', string> {
  return {
    'manifest.json': `${JSON.stringify(compiled.manifest)}\n`,
    'entities-catalog.json': `${JSON.stringify(compiled.catalog, null, 2)}\n`,
    'schema-json-registry.json': `${JSON.stringify(compiled.schemaRegistry, null, 2)}\n`,
  };
}
