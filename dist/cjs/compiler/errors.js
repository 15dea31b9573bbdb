"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ManifestError = void 0;
exports.fail = fail;
const errors_1 = require("../errors");
/** Compile failures: a stable code and a message naming the operation and the rule it breaks. */
class ManifestError extends errors_1.PulseError {
    code = 'PULSE_ERR_MANIFEST';
    constructor(message) {
        super(message);
        this.name = 'ManifestError';
    }
}
exports.ManifestError = ManifestError;
function fail(message) {
    throw new ManifestError(message);
}
