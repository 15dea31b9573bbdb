// `npm run example:oauth`: the catalog example behind OAuth 2.1. It compiles the notes router's
// artifacts, starts the governed backend (its own service token), the MCP host on HOST/PORT
// (default 127.0.0.1:3000) and a real authorization server (./issuer.mjs, on ISSUER_PORT, default
// any free port) whose tokens the host introspects. The policy: `mcp:access` for everything,
// `notes:read` to read, `notes:write` to write, status with the baseline only, clear never.
// Prints how to get and revoke a token, then, last, the host's `… listening on …/mcp`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMcpNodeHandler } from '@pulse-compute/mcp/node';
import { backendUrlIn, compileArtifacts, forwardLines } from '../catalog/setup.mjs';
import { startIssuer } from './issuer.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const artifacts = compileArtifacts('pulse-oauth-');
const read = (name) => JSON.parse(readFileSync(join(artifacts, name), 'utf8'));

const backendToken = randomBytes(24).toString('base64url');
const backend = spawn(process.execPath, [here('../catalog/backend.mjs')], { env: { ...process.env, BACKEND_TOKEN: backendToken, BACKEND_PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
const backendUrl = await new Promise((resolve, reject) => {
  forwardLines(backend, (line) => {
    const url = backendUrlIn(line);
    if (url) resolve(url);
  });
  backend.once('exit', (code) => reject(new Error(`backend exited with ${code}`)));
});

// The resource is this host's own URL, so the host listens before its handler exists.
let handler;
const server = http.createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(Number(process.env.PORT || 3000), process.env.HOST || '127.0.0.1', resolve));
const { address, port } = server.address();
const mcpUrl = `http://${address.includes(':') ? `[${address}]` : address}:${port}/mcp`;
const issuer = await startIssuer({ resource: mcpUrl, redirectUris: ['http://127.0.0.1:1/callback'], port: Number(process.env.ISSUER_PORT || 0) });
handler = createMcpNodeHandler({
  legacyProtocol: process.env.LEGACY_PROTOCOL || undefined,
  tools: { catalog: read('entities-catalog.json'), schemas: read('schema-json-registry.json'), routerId: 'notes', target: 'node-javascript', endpoint: backendUrl, backendBearerToken: backendToken },
  authorization: {
    resource: mcpUrl,
    issuer: issuer.url,
    introspectionEndpoint: `${issuer.url}/token/introspection`,
    clientId: issuer.rsClient.id,
    clientSecret: issuer.rsClient.secret,
    scopes: ['mcp:access'],
    operations: { notes_status: [], notes_read: ['notes:read'], notes_write: ['notes:write'] },
    allowInsecureLoopback: true,
  },
});

const stop = () => {
  if (backend.exitCode === null) backend.kill('SIGTERM');
  server.closeAllConnections();
  server.close();
  void issuer.close();
};
backend.once('exit', (code) => {
  stop();
  process.exitCode = code ?? 1;
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, stop);
const token = `node ${fileURLToPath(new URL('./token.mjs', import.meta.url))}`;
process.stdout.write(`issuer ${issuer.url} (metadata: ${issuer.url}/.well-known/openid-configuration)\n`);
process.stdout.write(`get a token:    ${token} mint --issuer ${issuer.url} --resource ${mcpUrl} --scope "mcp:access notes:read"\n`);
process.stdout.write(`revoke it:      ${token} revoke --issuer ${issuer.url} --token=<token>\n`);
process.stdout.write(`Pulse MCP (oauth) listening on ${mcpUrl}\n`);
