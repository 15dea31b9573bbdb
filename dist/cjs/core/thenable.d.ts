/** Whether `v` is a promise or another thenable: what promise resolution would adopt. */
export declare function isThenable(v: unknown): v is PromiseLike<unknown>;
