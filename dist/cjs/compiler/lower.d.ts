import type * as TS from 'typescript';
import type { HandlerDefinition, RouterDefinition } from '../router/definition';
import { type Target } from './types';
export declare const INSPECTION_FORMAT_VERSION = 1;
export interface OperationInspection {
    readonly name: string;
    readonly handler: HandlerDefinition['kind'];
    /** What the handler may do, by capability; never a value. */
    readonly effects: readonly string[];
    /** `file:line:column` of the operation's name in the module. */
    readonly declaredAt: string;
}
export interface Inspection {
    readonly formatVersion: number;
    readonly kind: 'pulse.entities-inspection';
    readonly routerId: string;
    readonly operations: readonly OperationInspection[];
}
export interface Lowered {
    readonly definition: RouterDefinition;
    /** Per operation name, its inspection entry (the catalog hash is added by the caller). */
    readonly inspection: Inspection;
    /** The options of the exported `mcp({...})` call that binds this router, as written; absent without one. */
    readonly binding?: DeclaredBinding;
}
/** The static binding's options a build reads, each a static value; judged by staticOptions and the core. */
export interface DeclaredBinding {
    readonly serverInfo?: unknown;
    readonly legacyProtocol?: unknown;
    readonly limits?: unknown;
    readonly fastlyLogEndpoint?: unknown;
    readonly rateLimit?: unknown;
}
export declare function lowerRouter(ts: typeof TS, file: string, options?: {
    router?: string;
    target?: Target;
}): Lowered;
