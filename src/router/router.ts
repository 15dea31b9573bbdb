/**
 * The static entity router: a module-level registry of schema-typed operations. Declarations are
 * validated as they are made; binding the router (toolSource/mcp/jsonRpc) freezes it. Handler
 * functions live only in module-private state: the router object exposes names and metadata, never
 * a function, and `routerDefinition` (module-internal, not re-exported by the package entry) is the
 * single way the binding layer reads them.
 */
import type { CodecDescriptor } from './codec-types';
import { isCodec, type Codec } from './codecs';
import type { Budgets, CorpusDefinition, CorpusEntry, HandlerDefinition, InputRound, OperationDefinition, RouterDefinition, ToolHints } from './definition';
import { jsonText, type McpContentBlock } from '../options';
import { fail } from './errors';
import { deepFreeze, isNativeHandler, utf8Length, type NativeHandler } from '../handlers/helpers';
import type { HandlerContext } from '../handlers/context';
import { backendBase, DEFAULT_BUDGETS, HINT_KEYS, isName, MAX_OPERATIONS } from './rules';

export { DEFAULT_BUDGETS, MAX_OPERATIONS };

export type InputOf<I> = I extends Codec<infer T> ? T : Record<string, never>;
export type OutputOf<O> = O extends Codec<infer T> ? T : void | null;

/** What a handler returns: its output, or (for a `content: true` operation) content blocks. */
type HandlerResult<O> = OutputOf<O> | readonly McpContentBlock[];

export type JavaScriptHandler<I, O> = (ctx: HandlerContext, input: InputOf<I>) => HandlerResult<O> | Promise<HandlerResult<O>>;

export interface OperationOptions<I extends Codec | undefined, O extends Codec | undefined> {
  readonly input?: I;
  readonly output?: O;
  readonly title?: string;
  readonly description?: string;
  readonly hints?: ToolHints;
  /**
   * `true`: the handler returns MCP content blocks (text, image, audio, embedded resource, resource
   * link) instead of structured output; `output` must then be absent.
   */
  readonly content?: boolean;
  /**
   * Rounds of input the client supplies before the handler runs (elicitation, sampling, roots);
   * the handler reads the answers as `ctx.inputResponses`. Needs the `requestStateKey` option.
   */
  readonly inputs?: readonly InputRound[];
  /**
   * Input fields mirrored into `Mcp-Param-<Name>` headers so infrastructure can route without
   * reading bodies (`x-mcp-header` in the input schema): field → header name, an RFC 9110 token.
   * The core holds header and body to agreement. Never name a secret here: headers are logged.
   */
  readonly headerParams?: Readonly<Record<string, string>>;
  /**
   * `true`: the operation is reachable only with the backend's service credential. Carried in the
   * catalog, so a host serving it from the artifacts refuses to start without `backendBearerToken`;
   * the backend itself must check that credential (jsonRpc does not).
   */
  readonly authenticated?: boolean;
  readonly handler: NativeHandler | JavaScriptHandler<I, O>;
}

export interface RouterOptions {
  /** Name → base URL (https, or http on a loopback address). Origins become ctx.fetch's allowlist. */
  readonly backends?: Readonly<Record<string, string | { readonly url: string }>>;
  readonly config?: Readonly<Record<string, string | number | boolean>>;
  readonly budgets?: Partial<Budgets>;
  readonly corpora?: Readonly<Record<string, CorpusDefinition>>;
}

interface RouterState {
  readonly id: string;
  readonly operations: Map<string, OperationDefinition>;
  readonly backends: Readonly<Record<string, { readonly url: string }>>;
  readonly config: Readonly<Record<string, string | number | boolean>>;
  readonly budgets: Budgets;
  readonly corpora: Readonly<Record<string, CorpusDefinition>>;
  definition: RouterDefinition | undefined;
  published: RouterDefinition | undefined;
}

/** Stands in for every JavaScript handler in the published definition; refuses to run. */
const INERT_JAVASCRIPT: HandlerDefinition = Object.freeze({
  kind: 'javascript',
  fn: Object.freeze(function javascriptHandler(): never {
    return fail('PULSE_ERR_CALL', 'callUnsupported');
  }),
});

const states = new WeakMap<EntityRouter, RouterState>();

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

function record<T>(v: unknown, max: number, each: (key: string, value: unknown) => T, onError: () => never): Readonly<Record<string, T>> {
  if (v === undefined) return Object.freeze(Object.create(null));
  if (!isPlainObject(v)) onError();
  const keys = Object.keys(v);
  if (keys.length > max) onError();
  const out: Record<string, T> = Object.create(null);
  for (const k of keys) {
    if (!isName(k)) onError();
    out[k] = each(k, v[k]);
  }
  return Object.freeze(out);
}

function backendUrl(v: unknown): { readonly url: string } {
  const raw = typeof v === 'string' ? v : isPlainObject(v) && Object.keys(v).length === 1 ? v.url : undefined;
  const url = backendBase(raw);
  if (url === undefined) fail('PULSE_ERR_DECLARATION', 'backends');
  return Object.freeze({ url });
}

function configValue(_k: string, v: unknown): string | number | boolean {
  const ok =
    (typeof v === 'string' && v.length <= 4096) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
  if (!ok) fail('PULSE_ERR_DECLARATION', 'config');
  return v as string | number | boolean;
}

function budgets(v: unknown): Budgets {
  if (v === undefined) return DEFAULT_BUDGETS;
  if (!isPlainObject(v)) fail('PULSE_ERR_DECLARATION', 'budgets');
  const out: Record<string, number> = { ...DEFAULT_BUDGETS };
  for (const k of Object.keys(v)) {
    const max = (DEFAULT_BUDGETS as unknown as Record<string, number>)[k];
    const n = v[k];
    if (max === undefined || typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
      fail('PULSE_ERR_DECLARATION', 'budgets');
    }
    out[k] = n;
  }
  return Object.freeze(out) as unknown as Budgets;
}

const MAX_CORPUS_ENTRIES = 4096;
const MAX_CORPUS_BYTES = 8 * 1048576;

function corpusDefinition(_k: string, v: unknown): CorpusDefinition {
  const bad = (): never => fail('PULSE_ERR_DECLARATION', 'corpora');
  if (!isPlainObject(v) || typeof v.version !== 'string' || v.version.length < 1 || v.version.length > 128) bad();
  const c = v as Record<string, unknown>;
  if (!Array.isArray(c.entries) || c.entries.length > MAX_CORPUS_ENTRIES) bad();
  const ids = new Set<string>();
  let bytes = 0;
  const entries = (c.entries as unknown[]).map((e): CorpusEntry => {
    if (!isPlainObject(e)) bad();
    const { id, title, collection, text, tags } = e as Record<string, unknown>;
    if (!isName(id) || ids.has(id)) bad();
    if (typeof title !== 'string' || title.length > 512) bad();
    if (!isName(collection)) bad();
    if (typeof text !== 'string') bad();
    if (tags !== undefined && (!Array.isArray(tags) || tags.length > 32 || tags.some((t) => typeof t !== 'string' || t.length > 64))) bad();
    ids.add(id as string);
    bytes += utf8Length(text as string) + utf8Length(title as string);
    const entry: Record<string, unknown> = { id, title, collection, text };
    if (tags !== undefined) entry.tags = [...(tags as string[])];
    return entry as unknown as CorpusEntry;
  });
  if (bytes > MAX_CORPUS_BYTES) bad();
  return deepFreeze({ version: c.version as string, entries });
}

const OPERATION_KEYS = ['input', 'output', 'title', 'description', 'hints', 'content', 'inputs', 'headerParams', 'authenticated', 'handler'];

export class EntityRouter {
  constructor(id: string, options?: RouterOptions) {
    if (!isName(id)) fail('PULSE_ERR_DECLARATION', 'routerId');
    const o: unknown = options ?? {};
    if (!isPlainObject(o) || Object.keys(o).some((k) => !['backends', 'config', 'budgets', 'corpora'].includes(k))) {
      fail('PULSE_ERR_DECLARATION', 'routerOptions');
    }
    states.set(this, {
      id,
      operations: new Map(),
      backends: record(o.backends, 32, (_k, v) => backendUrl(v), () => fail('PULSE_ERR_DECLARATION', 'backends')),
      config: record(o.config, 256, configValue, () => fail('PULSE_ERR_DECLARATION', 'config')),
      budgets: budgets(o.budgets),
      corpora: record(o.corpora, 16, corpusDefinition, () => fail('PULSE_ERR_DECLARATION', 'corpora')),
      definition: undefined,
      published: undefined,
    });
    Object.freeze(this);
  }

  get id(): string {
    return state(this).id;
  }

  /** Declared operation names, in declaration order. */
  get operationNames(): readonly string[] {
    return Object.freeze([...state(this).operations.keys()]);
  }

  /** Whether the router is bound (no further declarations). */
  get frozen(): boolean {
    return state(this).definition !== undefined;
  }

  /**
   * The plain-data definition for build tooling (the compiler CLI). Binds (freezes) the router.
   * JavaScript handlers appear as one shared inert placeholder, never as the declared function.
   */
  definition(): RouterDefinition {
    const s = state(this);
    if (s.published === undefined) {
      const full = routerDefinition(this);
      s.published = Object.freeze({
        ...full,
        operations: Object.freeze(
          full.operations.map((op) =>
            op.handler.kind === 'javascript' ? Object.freeze({ ...op, handler: INERT_JAVASCRIPT }) : op,
          ),
        ),
      });
    }
    return s.published;
  }

  operation<I extends Codec | undefined = undefined, O extends Codec | undefined = undefined>(
    name: string,
    options: OperationOptions<I, O>,
  ): this {
    const s = state(this);
    if (s.definition !== undefined) fail('PULSE_ERR_FROZEN', 'frozen');
    if (!isName(name)) fail('PULSE_ERR_DECLARATION', 'operationName');
    if (s.operations.has(name)) fail('PULSE_ERR_DECLARATION', 'operationDuplicate');
    if (s.operations.size >= MAX_OPERATIONS) fail('PULSE_ERR_DECLARATION', 'operationCount');
    const o: unknown = options;
    if (!isPlainObject(o) || Object.keys(o).some((k) => !OPERATION_KEYS.includes(k))) fail('PULSE_ERR_DECLARATION', 'operationOptions');
    const { input, output, title, description, hints, content, inputs, headerParams, authenticated, handler } = o;
    if (title !== undefined && (typeof title !== 'string' || title.length > 256)) fail('PULSE_ERR_DECLARATION', 'operationTitle');
    if (description !== undefined && (typeof description !== 'string' || description.length > 4096)) {
      fail('PULSE_ERR_DECLARATION', 'operationTitle');
    }
    if (hints !== undefined) {
      if (!isPlainObject(hints) || Object.keys(hints).some((k) => !HINT_KEYS.includes(k) || typeof hints[k] !== 'boolean')) {
        fail('PULSE_ERR_DECLARATION', 'operationHints');
      }
    }
    if (input !== undefined && (!isCodec(input) || (input as CodecDescriptor).kind !== 'object')) fail('PULSE_ERR_DECLARATION', 'operationInput');
    if (output !== undefined && !isCodec(output)) fail('PULSE_ERR_DECLARATION', 'operationOutput');
    if (content !== undefined && typeof content !== 'boolean') fail('PULSE_ERR_DECLARATION', 'operationContent');
    if (content === true && output !== undefined) fail('PULSE_ERR_DECLARATION', 'operationContent');
    if (inputs !== undefined && !Array.isArray(inputs)) fail('PULSE_ERR_DECLARATION', 'operationInputs');
    if (headerParams !== undefined) {
      // The name rule (an RFC 9110 token) is the core's, applied when the handler is built.
      if (!isPlainObject(headerParams) || Object.values(headerParams).some((h) => typeof h !== 'string')) {
        fail('PULSE_ERR_DECLARATION', 'operationHeaderParams');
      }
    }
    if (authenticated !== undefined && typeof authenticated !== 'boolean') fail('PULSE_ERR_DECLARATION', 'operationAuthenticated');
    const def: Record<string, unknown> = { name, handler: handlerDefinition(s, handler) };
    if (title !== undefined) def.title = title;
    if (description !== undefined) def.description = description;
    if (hints !== undefined) def.hints = Object.freeze({ ...hints });
    if (input !== undefined) def.input = input;
    if (output !== undefined) def.output = output;
    if (content === true) def.content = true;
    // Plain data, copied: the core judges the rounds when the handler is built.
    if (inputs !== undefined) def.inputs = deepFreeze(JSON.parse(jsonText(inputs, `operation "${name}" inputs`)) as InputRound[]);
    if (headerParams !== undefined) def.headerParams = Object.freeze({ ...headerParams });
    if (authenticated === true) def.authenticated = true;
    s.operations.set(name, Object.freeze(def) as unknown as OperationDefinition);
    return this;
  }
}

function handlerDefinition(s: RouterState, h: unknown): HandlerDefinition {
  if (typeof h === 'function') {
    return Object.freeze({ kind: 'javascript', fn: h as (ctx: unknown, input: unknown) => unknown });
  }
  if (!isNativeHandler(h)) fail('PULSE_ERR_DECLARATION', 'handler');
  if (h.kind === 'corpus' && s.corpora[h.corpus] === undefined) fail('PULSE_ERR_DECLARATION', 'handlerCorpus');
  if (h.kind === 'backend') {
    if (s.backends[h.backend] === undefined) fail('PULSE_ERR_DECLARATION', 'handlerBackend');
    // The builder bounded it by the default deadline; the router's own may be lower.
    if (h.timeoutMs > s.budgets.deadlineMs) fail('PULSE_ERR_DECLARATION', 'handlerBackendOptions');
  }
  return h;
}

function state(r: EntityRouter): RouterState {
  const s = states.get(r);
  if (s === undefined) fail('PULSE_ERR_DECLARATION', 'routerId');
  return s;
}

export function isEntityRouter(v: unknown): v is EntityRouter {
  return typeof v === 'object' && v !== null && states.has(v as EntityRouter);
}

/**
 * Module-internal: freezes the router (binding) and returns its complete definition, including
 * JavaScript handler functions. Not exported by the package entry points.
 */
export function routerDefinition(r: EntityRouter): RouterDefinition {
  const s = state(r);
  if (s.definition === undefined) {
    s.definition = Object.freeze({
      id: s.id,
      operations: Object.freeze([...s.operations.values()]),
      corpora: s.corpora,
      backends: s.backends,
      config: s.config,
      budgets: s.budgets,
    });
  }
  return s.definition;
}
