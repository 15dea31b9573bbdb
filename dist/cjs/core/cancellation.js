"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Cancellation = exports.CANCELLATION = void 0;
/**
 * How the driver tells an effect's work it stopped waiting (the effect's budget ran out, the
 * request's deadline passed, the client left), without an `AbortController` per effect: most work
 * is never abandoned. A real `AbortSignal` is made only when asked for (`fetch`, a handler reading
 * `ctx.signal`); the Node exchange and the router's request scope listen here directly (the scope
 * finds this object under `CANCELLATION` in the handler context). Where no AbortController exists
 * (Fastly JavaScript) it is itself what `ctx.signal` offers.
 */
exports.CANCELLATION = Symbol('pulse.cancellation');
class Cancellation {
    aborted = false;
    reason = undefined;
    #listeners;
    #controller;
    addEventListener(_type, listener) {
        (this.#listeners ??= []).push(listener);
    }
    removeEventListener(_type, listener) {
        const i = this.#listeners?.indexOf(listener) ?? -1;
        if (i >= 0)
            this.#listeners.splice(i, 1);
    }
    cancel(reason) {
        if (this.aborted)
            return;
        this.aborted = true;
        this.reason = reason;
        this.#controller?.abort(reason);
        const listeners = this.#listeners;
        this.#listeners = undefined;
        for (const l of listeners ?? []) {
            try {
                l();
            }
            catch {
                // A listener's failure must not keep the others from hearing of the cancellation.
            }
        }
    }
    /** A real `AbortSignal` following this cancellation, made on first use; none without AbortController. */
    get signal() {
        if (this.#controller === undefined) {
            if (typeof AbortController !== 'function')
                return undefined;
            this.#controller = new AbortController();
            if (this.aborted)
                this.#controller.abort(this.reason);
        }
        return this.#controller.signal;
    }
}
exports.Cancellation = Cancellation;
