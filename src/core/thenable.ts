/** Whether `v` is a promise or another thenable: what promise resolution would adopt. */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}
