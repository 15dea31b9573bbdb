"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isThenable = isThenable;
/** Whether `v` is a promise or another thenable: what promise resolution would adopt. */
function isThenable(v) {
    return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof v.then === 'function';
}
