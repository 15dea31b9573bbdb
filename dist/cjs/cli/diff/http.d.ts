export interface WireRequest {
    readonly method: string;
    readonly path: string;
    /** Sent in order, exactly as given; `host`, `connection: close` and `content-length` are added. */
    readonly headers: readonly (readonly [string, string])[];
    readonly body?: Buffer;
}
export interface WireResponse {
    readonly status: number;
    /** Lower-cased names; a repeated name's values joined with ", ". */
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Buffer;
}
export declare function encodeRequest(req: WireRequest): Buffer;
/**
 * One response from the front of `buf`: `null` while incomplete (or, once the connection `ended`,
 * when it never completed). Throws on bytes that are not an HTTP/1.1 response.
 */
export declare function parseResponse(buf: Buffer, ended: boolean, method: string): WireResponse | null;
/**
 * Sends `req` to 127.0.0.1:`port` and resolves with the complete response, or `null` when none came
 * (refused, reset, unreadable, or nothing whole within `timeoutMs`).
 */
export declare function exchange(port: number, req: WireRequest, timeoutMs: number): Promise<WireResponse | null>;
