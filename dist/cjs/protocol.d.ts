/** The only revision of the default (modern) profile. */
export declare const PROTOCOL_VERSION = "2026-07-28";
