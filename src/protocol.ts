/** The only revision of the default (modern) profile. */
export const PROTOCOL_VERSION = '2026-07-28';

/** The single legacy revision a host may enable explicitly (`legacyProtocol`). */
export const LEGACY_PROTOCOL_VERSION = '2025-06-18';

/** Reported as serverInfo when the application does not name itself. */
export const DEFAULT_SERVER_INFO: { readonly name: string; readonly version: string } = Object.freeze({
  name: 'pulse-mcp',
  version: '0.1.0',
});
