"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RESPONSE_HEADROOM_BYTES = exports.DEFAULT_LIMITS = void 0;
// The values are the core's own (its pulse_defaults_* export), generated at build time.
var defaults_1 = require("./core/generated/defaults");
Object.defineProperty(exports, "DEFAULT_LIMITS", { enumerable: true, get: function () { return defaults_1.DEFAULT_LIMITS; } });
Object.defineProperty(exports, "RESPONSE_HEADROOM_BYTES", { enumerable: true, get: function () { return defaults_1.RESPONSE_HEADROOM_BYTES; } });
