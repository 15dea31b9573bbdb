// A real OAuth 2.1 / OpenID Connect authorization server for the example and the tests: the
// certified `oidc-provider`, on loopback, configured as the `authorization` option expects. It has
// discovery metadata, authorization code with PKCE S256 (required), RFC 8707 resource indicators
// bound to one exact resource, a pre-registered public MCP client with its exact redirect URI, a
// separate confidential resource-server client that introspects with client_secret_basic, RFC 7009
// revocation, and opaque access tokens (JWT ones on request). Sign-in uses the provider's own
// development interactions: any login name becomes the subject, so a script can run the flow
// (./flow.mjs) without a browser.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

/** The scopes this resource knows: the baseline and one per kind of access. */
export const SCOPES = ['mcp:access', 'notes:read', 'notes:write'];
export const MCP_CLIENT_ID = 'pulse-mcp-client';
export const RS_CLIENT_ID = 'pulse-resource-server';

/**
 * Starts the issuer on 127.0.0.1:`port` (0: any free port) for `resource`. `redirectUris` are the
 * MCP client's exact callbacks. Returns its URL, the resource server's credentials and `close()`.
 */
export async function startIssuer({ resource, redirectUris, port = 0, accessTokenFormat = 'opaque', rsSecret = randomBytes(24).toString('base64url') }) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(url, {
    clients: [
      { client_id: MCP_CLIENT_ID, token_endpoint_auth_method: 'none', redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] },
      { client_id: RS_CLIENT_ID, client_secret: rsSecret, token_endpoint_auth_method: 'client_secret_basic', redirect_uris: [], grant_types: [], response_types: [] },
    ],
    // A fixed, per-run key: the example keeps no state across runs.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    scopes: ['openid'],
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, Interaction: 600, Session: 600 },
    features: {
      devInteractions: { enabled: true },
      introspection: { enabled: true, allowedPolicy: (ctx, client) => client.clientId === RS_CLIENT_ID },
      // Each token is revoked by the client it was issued to, and only by it.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope: SCOPES.join(' '), audience: resource, accessTokenTTL: 600, accessTokenFormat };
        },
      },
    },
  });
  // The provider logs configuration advice for production; this loopback fixture needs none.
  provider.on('server_error', (_ctx, err) => process.stderr.write(`issuer: ${err.message}\n`));
  server.on('request', provider.callback());
  return {
    url,
    provider,
    rsClient: { id: RS_CLIENT_ID, secret: rsSecret },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
