"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROTOCOL_VERSION = void 0;
/** The only revision of the default (modern) profile. */
exports.PROTOCOL_VERSION = '2026-07-28';
