import { type Codec } from './codecs';
import type { Budgets, CorpusDefinition, InputRound, RouterDefinition, ToolHints } from './definition';
import { type McpContentBlock } from '../options';
import { type NativeHandler } from '../handlers/helpers';
import type { HandlerContext } from '../handlers/context';
import { DEFAULT_BUDGETS, MAX_OPERATIONS } from './rules';
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
    readonly backends?: Readonly<Record<string, string | {
        readonly url: string;
    }>>;
    readonly config?: Readonly<Record<string, string | number | boolean>>;
    readonly budgets?: Partial<Budgets>;
    readonly corpora?: Readonly<Record<string, CorpusDefinition>>;
}
export declare class EntityRouter {
    constructor(id: string, options?: RouterOptions);
    get id(): string;
    /** Declared operation names, in declaration order. */
    get operationNames(): readonly string[];
    /** Whether the router is bound (no further declarations). */
    get frozen(): boolean;
    /**
     * The plain-data definition for build tooling (the compiler CLI). Binds (freezes) the router.
     * JavaScript handlers appear as one shared inert placeholder, never as the declared function.
     */
    definition(): RouterDefinition;
    operation<I extends Codec | undefined = undefined, O extends Codec | undefined = undefined>(name: string, options: OperationOptions<I, O>): this;
}
export declare function isEntityRouter(v: unknown): v is EntityRouter;
/**
 * Module-internal: freezes the router (binding) and returns its complete definition, including
 * JavaScript handler functions. Not exported by the package entry points.
 */
export declare function routerDefinition(r: EntityRouter): RouterDefinition;
