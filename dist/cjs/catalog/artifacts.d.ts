import { type Manifest, type Target } from '../compiler/types';
import type { McpSecretRef } from '../options';
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
export declare const CATALOG_BACKEND = "endpoint";
export declare const MAX_ARTIFACT_BYTES: number;
export declare const MAX_ARTIFACT_LEVELS = 32;
/** The manifest for the core, from validated copies of the artifacts. */
export declare function catalogManifest(value: Record<string, unknown>, limits: {
    readonly responseBytes: number;
    readonly deadlineMs: number;
}): Manifest;
