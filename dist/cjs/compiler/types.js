"use strict";
/**
 * The manifest format: the plain JSON value the TypeScript compiler emits and the Rust core
 * (`native/core/src/manifest.rs`) reads as engine config `tools`. Documented in ./README.md.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.TARGET_RENAMES = exports.TARGETS = exports.SCHEMA_REGISTRY_FORMAT_VERSION = exports.CATALOG_FORMAT_VERSION = exports.MANIFEST_FORMAT_VERSION = void 0;
exports.eligibleTargets = eligibleTargets;
exports.targetRefusal = targetRefusal;
/** Bumped on any incompatible change; the core rejects other versions. */
exports.MANIFEST_FORMAT_VERSION = 1;
/** 2: the targets are named by runtime and executor (`node-javascript`, not `node`). */
exports.CATALOG_FORMAT_VERSION = 2;
exports.SCHEMA_REGISTRY_FORMAT_VERSION = 1;
exports.TARGETS = Object.freeze(['fastly-native', 'node-native', 'node-javascript', 'fastly-javascript', 'workerd-javascript']);
/**
 * The targets an operation is eligible for, by handler kind, sorted. The core runs the native
 * kinds (static, corpus, backend) itself, so they run on every target. A JavaScript handler needs
 * a JavaScript engine beside the core: a Native build embeds the core alone, and running the
 * handler elsewhere instead would be a silent change of target, so the Native targets are not
 * eligible for it.
 */
function eligibleTargets(handler) {
    return handler === 'javascript' ? JAVASCRIPT_ELIGIBLE : NATIVE_ELIGIBLE;
}
const NATIVE_ELIGIBLE = Object.freeze([...exports.TARGETS].sort());
const JAVASCRIPT_ELIGIBLE = Object.freeze(exports.TARGETS.filter((t) => t.endsWith('-javascript')).sort());
/** Names earlier releases used; refused wherever a target is read, never mapped to the new one. */
const RENAMED_TARGETS = Object.freeze({ node: 'node-javascript', workerd: 'workerd-javascript' });
/**
 * Why `value`, read at `where`, is not a target (undefined when it is one): the one wording every
 * reader of a target uses, naming the new name for an old one.
 */
function targetRefusal(where, value) {
    if (exports.TARGETS.includes(value))
        return undefined;
    if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(RENAMED_TARGETS, value))
        return `${where}: "${value}" is now "${RENAMED_TARGETS[value]}"`;
    return `${where}: must be one of ${exports.TARGETS.join(', ')}`;
}
/** Every renaming, in the same wording: for a reader that meets an artifact of an earlier release. */
exports.TARGET_RENAMES = Object.entries(RENAMED_TARGETS).map(([old, now]) => `"${old}" is now "${now}"`).join(', ');
