/**
 * Catalog-backed tools: `tools: { catalog, schemas, routerId, target, endpoint, backendBearerToken? }`
 * (the artifacts `pulse-mcp compile` writes for a backend served with `jsonRpc(router)`) → the
 * manifest the core executes. Each tool becomes one `rpc` handler: the core checks the input's
 * structure, sends exactly one JSON-RPC request naming the operation to the fixed endpoint, and
 * checks the reply's envelope, id and output structure (native/core/src/rpc_client.rs). The
 * artifacts are read once, here, into new values: later changes to the caller's objects change
 * nothing. Every refusal is a `PulseConfigError` naming the option and the entry.
 */
import { PulseConfigError } from '../errors';
import { CATALOG_FORMAT_VERSION, MANIFEST_FORMAT_VERSION, SCHEMA_REGISTRY_FORMAT_VERSION, TARGET_RENAMES, targetRefusal, type Manifest, type ManifestTool, type Target } from '../compiler/types';
import { MAX_PROJECTION_NODES, type Direction } from '../compiler/projection';
import { backendBase, HINT_KEYS, isBearerToken, isName, MAX_OPERATIONS, NAME_RULE } from '../router/rules';
import { utf8Length } from '../handlers/helpers';
import type { McpSecretRef } from '../options';
import { lowerSchema } from './schema-program';

/** The artifacts of one deployed backend build and where that backend listens. */
export interface McpCatalogTools {
  /** `entities-catalog.json`, parsed. */
  readonly catalog: unknown;
  /** `schema-json-registry.json`, parsed. */
  readonly schemas: unknown;
  /** The router the artifacts were built from; both artifacts must name it. */
  readonly routerId: string;
  /** Where the backend runs: every operation must be eligible for it. */
  readonly target: Target;
  /** The backend's fixed JSON-RPC endpoint: https, or http to a loopback host. */
  readonly endpoint: string;
  /**
   * The backend's own service credential, sent as `Authorization: Bearer …` and nowhere else. On the
   * Fastly Native build, where text would be compiled into the module, a secret-store reference.
   */
  readonly backendBearerToken?: string | McpSecretRef;
  /** The Fastly backend that reaches `endpoint` (Native builds); default `endpoint`. */
  readonly backend?: string;
}

/** The Fastly backend name the edge sends to unless `backend` names another; hosts dial the URL. */
export const CATALOG_BACKEND = 'endpoint';
export const MAX_ARTIFACT_BYTES = 1 << 20;
export const MAX_ARTIFACT_LEVELS = 32;
const KEYS = ['catalog', 'schemas', 'routerId', 'target', 'endpoint', 'backendBearerToken', 'backend'];
const OPERATION_KEYS = ['name', 'title', 'description', 'hints', 'input', 'output', 'handler', 'targets', 'authenticated'];

function fail(message: string): never {
  throw new PulseConfigError(message);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of an artifact as plain JSON, within 1 MiB of JSON text and 32 levels; `undefined` when
 * it is not plain JSON at all.
 */
function snapshot(value: unknown, where: string): unknown {
  let text: string;
  const levels = (v: unknown, depth: number): void => {
    if (depth > MAX_ARTIFACT_LEVELS) fail(`${where}: nests deeper than ${MAX_ARTIFACT_LEVELS} levels`);
    if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) levels(x, depth + 1);
  };
  levels(value, 1);
  try {
    text = JSON.stringify(value);
  } catch {
    return fail(`${where}: must be plain JSON data`);
  }
  if (typeof text !== 'string') return fail(`${where}: must be plain JSON data`);
  if (utf8Length(text) > MAX_ARTIFACT_BYTES) fail(`${where}: is larger than ${MAX_ARTIFACT_BYTES} bytes of JSON`);
  return JSON.parse(text);
}

function artifact(value: unknown, option: string, kind: string, version: number, routerId: string): Record<string, unknown> {
  const a = snapshot(value, option);
  if (!isObject(a)) return fail(`${option}: must be the parsed ${kind === 'pulse.entities-catalog' ? 'entities-catalog.json' : 'schema-json-registry.json'}`);
  if (a.kind !== kind) fail(`${option}: kind must be "${kind}"`);
  // Catalogs of format 1 name their targets the old way: say so rather than "unknown".
  if (kind === 'pulse.entities-catalog' && a.formatVersion === 1)
    fail(`${option}: formatVersion 1 is an earlier release's, whose target names changed (${TARGET_RENAMES}); build the artifacts again with this release`);
  if (a.formatVersion !== version) fail(`${option}: unknown formatVersion ${JSON.stringify(a.formatVersion)}; this release reads ${version}`);
  if (a.routerId !== routerId) fail(`${option}: routerId ${JSON.stringify(a.routerId)} is not tools.routerId ${JSON.stringify(routerId)}`);
  if (typeof a.hash !== 'string') fail(`${option}: needs its hash`);
  return a;
}

/** The manifest for the core, from validated copies of the artifacts. */
export function catalogManifest(value: Record<string, unknown>, limits: { readonly responseBytes: number; readonly deadlineMs: number }): Manifest {
  for (const k of Object.keys(value)) if (!KEYS.includes(k)) fail(`tools: unknown key ${JSON.stringify(k)}; catalog-backed tools take ${KEYS.join(', ')}`);
  const { routerId, target, endpoint, backendBearerToken } = value;
  if (!isName(routerId)) fail(`tools.routerId: must be ${NAME_RULE}`);
  const refused = targetRefusal('tools.target', target);
  if (refused !== undefined) fail(refused);
  const url = backendBase(endpoint);
  if (url === undefined) fail('tools.endpoint: must be an https URL, or http to a loopback host, without credentials, query or fragment');
  // Text must be a bearer token; a reference (Native builds) is copied, and judged by the core.
  let bearer: string | McpSecretRef | undefined;
  if (isObject(backendBearerToken)) bearer = { ...backendBearerToken } as unknown as McpSecretRef;
  else if (backendBearerToken === undefined || isBearerToken(backendBearerToken)) bearer = backendBearerToken;
  else fail('tools.backendBearerToken: must be a bearer token (RFC 6750 characters: A-Z a-z 0-9 - . _ ~ + / then optional =, at most 4096)');
  const backend = value.backend ?? CATALOG_BACKEND;
  if (!isName(backend)) fail(`tools.backend: must be a Fastly backend name, ${NAME_RULE}`);
  const catalog = artifact(value.catalog, 'tools.catalog', 'pulse.entities-catalog', CATALOG_FORMAT_VERSION, routerId);
  const registry = artifact(value.schemas, 'tools.schemas', 'pulse.schema-json-registry', SCHEMA_REGISTRY_FORMAT_VERSION, routerId);

  const schemas = new Map<string, unknown>();
  if (!Array.isArray(registry.schemas)) fail('tools.schemas.schemas: must be a list');
  registry.schemas.forEach((entry, i) => {
    const where = `tools.schemas.schemas[${i}]`;
    if (!isObject(entry) || typeof entry.id !== 'string' || !isObject(entry.schema)) fail(`${where}: must be { id, schema }`);
    if (schemas.has(entry.id)) fail(`${where}: duplicate schema id ${JSON.stringify(entry.id)}`);
    schemas.set(entry.id, entry.schema);
  });

  const ops = catalog.operations;
  if (!Array.isArray(ops)) fail('tools.catalog.operations: must be a list');
  if (ops.length > MAX_OPERATIONS) fail(`tools.catalog: router "${routerId}" has ${ops.length} operations; at most ${MAX_OPERATIONS} tools are allowed`);
  const names = new Set<string>();
  const tools: ManifestTool[] = [];
  const listed: Record<string, unknown>[] = [];
  ops.forEach((op, i) => {
    let where = `tools.catalog.operations[${i}]`;
    if (!isObject(op)) fail(`${where}: must be an object`);
    if (!isName(op.name)) fail(`${where}: name must be ${NAME_RULE}`);
    where = `${where} (${op.name})`;
    if (names.has(op.name)) fail(`${where}: duplicate tool name`);
    names.add(op.name);
    for (const k of Object.keys(op)) if (!OPERATION_KEYS.includes(k)) fail(`${where}: unknown member ${JSON.stringify(k)}`);
    if (Array.isArray(op.targets))
      op.targets.forEach((t, j) => {
        const wrong = targetRefusal(`${where}.targets[${j}]`, t);
        if (wrong !== undefined) fail(wrong);
      });
    if (!Array.isArray(op.targets) || !op.targets.includes(target)) fail(`${where}: not eligible for target ${target as string} (its targets: ${Array.isArray(op.targets) ? op.targets.join(', ') : 'none'})`);
    for (const k of ['title', 'description'] as const) if (op[k] !== undefined && typeof op[k] !== 'string') fail(`${where}: ${k} must be a string`);
    if (op.authenticated !== undefined && op.authenticated !== true) fail(`${where}: authenticated must be true when present`);
    if (op.authenticated === true && backendBearerToken === undefined)
      fail(`tools.backendBearerToken: required, because ${where} is authenticated (it needs the backend's service credential)`);
    const hints: Record<string, boolean> = {};
    if (op.hints !== undefined) {
      if (!isObject(op.hints)) fail(`${where}: hints must be an object`);
      for (const [k, v] of Object.entries(op.hints)) {
        if (!HINT_KEYS.includes(k) || typeof v !== 'boolean') fail(`${where}: hints may hold only the four boolean MCP hints (${HINT_KEYS.join(', ')})`);
        hints[k] = v;
      }
    }
    const lower = (id: unknown, direction: Direction) => {
      if (id === null && direction === 'output') return { schema: undefined, lowered: { program: null, headers: [], nodes: 0 } };
      if (typeof id !== 'string' || !schemas.has(id)) fail(`${where}: ${direction} schema ${JSON.stringify(id)} is not in tools.schemas`);
      const schema = schemas.get(id);
      const say = (at: string, reason: string): never => fail(`tools.schemas: schema ${JSON.stringify(id)} at ${at}: ${reason}`);
      return { schema, lowered: lowerSchema(schema, direction, say) };
    };
    const input = lower(op.input, 'input');
    const output = lower(op.output, 'output');
    if (input.lowered.nodes + output.lowered.nodes > MAX_PROJECTION_NODES) fail(`${where}: the schema projection exceeds ${MAX_PROJECTION_NODES} nodes`);
    tools.push({
      name: op.name,
      input: input.lowered.program,
      output: output.lowered.program,
      ...(input.lowered.headers.length > 0 ? { headers: input.lowered.headers } : {}),
      handler: {
        kind: 'rpc',
        backend,
        url,
        maxBytes: Math.min(limits.responseBytes, MAX_ARTIFACT_BYTES),
        ...(bearer === undefined ? {} : { bearer }),
      },
    });
    // Only the title, the description and the four hints are projected.
    const tool: Record<string, unknown> = { name: op.name };
    if (op.title !== undefined) tool.title = op.title;
    if (op.description !== undefined) tool.description = op.description;
    tool.inputSchema = input.schema;
    if (output.schema !== undefined) tool.outputSchema = output.schema;
    if (Object.keys(hints).length > 0) tool.annotations = hints;
    listed.push(tool);
  });
  return {
    formatVersion: MANIFEST_FORMAT_VERSION,
    routerId,
    catalogHash: catalog.hash as string,
    deadlineMs: limits.deadlineMs,
    list: JSON.stringify(listed),
    tools,
    corpora: {},
  };
}
