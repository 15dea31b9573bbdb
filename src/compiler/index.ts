/**
 * The manifest compiler: RouterDefinition (plain data, handlers never called) → the manifest the
 * core executes plus the two catalog artifacts. The core checks every manifest rule itself and is
 * the authority; the declaration rules are checked here too (imported from ../router/rules, never
 * restated), so a bad router fails at build time with a message naming the operation. Whether the
 * `tools/list` reply fits a response budget is decided by the core alone, where the budget is known.
 * Format: ./README.md.
 */
import { staticResultText } from '../handlers/helpers';
import type { McpCoreSource } from '../options';
import type { CodecDescriptor } from '../router/codec-types';
import type { HandlerDefinition, OperationDefinition, RouterDefinition } from '../router/definition';
import {
  BACKEND_METHODS,
  backendBase,
  backendCallUrl,
  DEFAULT_CORPUS_MAX_BYTES,
  DEFAULT_TOP_K,
  HANDLER_BYTES,
  HINT_KEYS,
  inRange,
  isBackendPath,
  isBackendUrl,
  isName,
  MAX_OPERATIONS,
  MAX_URL_BYTES,
  NAME_RULE,
  STATIC_RESULT_RULE,
  TOP_K,
  type Range,
} from '../router/rules';
import { corpusIndexes } from './corpus';
import { fail } from './errors';
import { compileProgram, MAX_PROJECTION_NODES, noInputSchema, project, type Projection } from './projection';
import { sha256Hex } from './sha256';
import {
  CATALOG_FORMAT_VERSION,
  MANIFEST_FORMAT_VERSION,
  SCHEMA_REGISTRY_FORMAT_VERSION,
  type CatalogOperation,
  type CompiledRouter,
  type EntitiesCatalog,
  type Manifest,
  type ManifestCorpus,
  type ManifestHandler,
  type ManifestTool,
  type SchemaRegistry,
  eligibleTargets,
} from './types';

export * from './types';
export { ManifestError } from './errors';
export { sha256Hex } from './sha256';

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

function staticJson(value: unknown, where: string): string {
  const text = staticResultText(value);
  if (text === undefined) fail(`${where}: static result must be ${STATIC_RESULT_RULE}`);
  return text;
}

function backendUrl(base: string, path: string, where: string): string {
  if (backendBase(base) === undefined) fail(`${where}: backend url must be https or loopback http without credentials, query or fragment`);
  if (!isBackendPath(path)) fail(`${where}: backend path must be an absolute path of unreserved characters without dot segments`);
  const url = backendCallUrl(base, path);
  if (!isBackendUrl(url)) fail(`${where}: backend url with its path must be at most ${MAX_URL_BYTES} characters`);
  return url;
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

function bounded(v: unknown, dflt: number | undefined, range: Range, what: string, where: string): number {
  const n = v ?? dflt;
  if (!inRange(n, range)) fail(`${where}: ${what} must be an integer from ${range.min} to ${range.max}`);
  return n;
}

function compileHandler(op: OperationDefinition, def: RouterDefinition, where: string): ManifestHandler {
  const h: HandlerDefinition = op.handler;
  if (!isPlainObject(h)) fail(`${where}: handler must be a handler definition`);
  switch (h.kind) {
    case 'static':
      // A content tool's static result is its content blocks.
      return op.output === undefined && op.content !== true ? { kind: 'static' } : { kind: 'static', result: staticJson(h.result, where) };
    case 'corpus': {
      if (!Object.prototype.hasOwnProperty.call(def.corpora, h.corpus)) fail(`${where}: corpus is not declared on the router`);
      const topK = bounded(h.topK, DEFAULT_TOP_K, TOP_K, 'topK', where);
      const maxBytes = bounded(h.maxBytes, DEFAULT_CORPUS_MAX_BYTES, HANDLER_BYTES, 'maxBytes', where);
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
      if (!BACKEND_METHODS.includes(h.method)) fail(`${where}: backend method must be one of ${BACKEND_METHODS.join(', ')}`);
      if (h.method === 'GET' && op.input !== undefined) fail(`${where}: a GET backend call carries no body, so the operation must take no input`);
      const url = backendUrl(def.backends[h.backend]!.url, h.path, where);
      const maxBytes = bounded(h.maxBytes, undefined, HANDLER_BYTES, 'maxBytes', where);
      const timeoutMs = bounded(h.timeoutMs, undefined, { min: 1, max: def.budgets.deadlineMs }, 'timeoutMs', where);
      return { kind: 'backend', backend: h.backend, method: h.method, url, maxBytes, timeoutMs };
    }
    case 'javascript':
      if (typeof h.fn !== 'function') fail(`${where}: javascript handler must be a function`);
      return { kind: 'javascript' };
    default:
      return fail(`${where}: unknown handler kind`);
  }
}

export interface CompileOptions {
  /** The core that builds corpus indexes, as for the hosts (a `WebAssembly.Module` on workerd). */
  readonly core?: McpCoreSource | undefined;
}

export function compileRouter(def: RouterDefinition, options: CompileOptions = {}): CompiledRouter {
  if (!isName(def.id)) fail(`router id must be ${NAME_RULE}`);
  if (!Array.isArray(def.operations)) fail('router operations must be a list');
  if (def.operations.length > MAX_OPERATIONS) fail(`router declares ${def.operations.length} operations; at most ${MAX_OPERATIONS} tools are allowed`);
  const deadlineMs = def.budgets?.deadlineMs;
  if (typeof deadlineMs !== 'number' || !Number.isInteger(deadlineMs) || deadlineMs < 1) fail('router budgets.deadlineMs must be a positive integer');

  const names = new Set<string>();
  const tools: ManifestTool[] = [];
  const listed: Record<string, unknown>[] = [];
  const catalogOps: CatalogOperation[] = [];
  const schemas: { id: string; schema: unknown }[] = [];
  const usedCorpora = new Set<string>();

  for (const op of def.operations) {
    if (!isName(op.name)) fail(`operation name must be ${NAME_RULE}`);
    const where = `operation "${op.name}"`;
    if (names.has(op.name)) fail(`${where}: duplicate operation name`);
    names.add(op.name);
    for (const k of ['title', 'description'] as const)
      if (op[k] !== undefined && typeof op[k] !== 'string') fail(`${where}: ${k} must be a string`);
    const hints: Record<string, boolean> = {};
    if (op.hints !== undefined) {
      if (!isPlainObject(op.hints)) fail(`${where}: hints must be an object`);
      for (const k of Object.keys(op.hints))
        if (!HINT_KEYS.includes(k)) fail(`${where}: unknown hint "${k}"; only the four boolean MCP hints are allowed`);
      for (const k of HINT_KEYS as readonly (keyof NonNullable<OperationDefinition['hints']>)[]) {
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

    const headers = Object.entries<string>(op.headerParams ?? {});
    tools.push({
      name: op.name,
      input: op.input === undefined ? null : compileProgram(op.input, `${where} input`),
      output: op.output === undefined ? null : compileProgram(op.output, `${where} output`),
      ...(op.content === true ? { content: true as const } : {}),
      ...(op.inputs !== undefined ? { inputs: op.inputs } : {}),
      ...(headers.length > 0 ? { headers } : {}),
      handler,
    });
    for (const [field, name] of headers) {
      const property = (input.schema.properties as Record<string, Record<string, unknown>> | undefined)?.[field];
      if (property === undefined) fail(`${where}: headerParams names "${field}", which is not an input field`);
      property['x-mcp-header'] = name;
    }

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
      targets: eligibleTargets(op.handler.kind),
    });
    if (op.authenticated !== undefined && typeof op.authenticated !== 'boolean') fail(`${where}: authenticated must be a boolean`);
    if (op.authenticated === true) entry.authenticated = true;
    catalogOps.push(entry as unknown as CatalogOperation);
  }

  const list = JSON.stringify(listed);

  const corpora: Record<string, ManifestCorpus> = {};
  const index = corpusIndexes(options.core);
  for (const name of [...usedCorpora].sort()) corpora[name] = index(def.corpora[name]!, `corpus "${name}"`);

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
