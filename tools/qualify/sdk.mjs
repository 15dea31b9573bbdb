// Driver for the official TypeScript client @modelcontextprotocol/client 2.4.0
// (resolved from qualify/node_modules, never from the library's dependencies).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { withTimeout } from './lib.mjs';

const REQUEST_TIMEOUT_MS = 10_000;
const CLIENT_INFO = { name: 'pulse-qualify', version: '0.0.0' };

export const MODES = {
  pin2026: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  auto: { versionNegotiation: { mode: 'auto' } },
  // The default legacy mode, restricted to the one legacy revision our server offers.
  legacy0618: { supportedProtocolVersions: ['2025-06-18'] },
};

export async function connect(url, mode) {
  const client = new Client(CLIENT_INFO, MODES[mode]);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await withTimeout(client.connect(transport, { timeout: REQUEST_TIMEOUT_MS }), REQUEST_TIMEOUT_MS + 1000, 'connect');
  } catch (e) {
    await client.close().catch(() => {});
    throw e;
  }
  return {
    client,
    era: client.getProtocolEra(),
    version: client.getNegotiatedProtocolVersion(),
    server: client.getServerVersion(),
    discover: client.getDiscoverResult(),
    close: () => withTimeout(client.close(), 3000, 'close').catch(() => {}),
  };
}

export async function listTools(conn) {
  const r = await withTimeout(conn.client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS }), REQUEST_TIMEOUT_MS + 1000, 'tools/list');
  return r.tools;
}

export async function callTool(conn, name, args) {
  return withTimeout(conn.client.callTool({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS }), REQUEST_TIMEOUT_MS + 1000, 'tools/call');
}
