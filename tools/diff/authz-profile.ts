/**
 * The differential run's authorization profile: the catalog-backed tools behind the
 * `authorization` option, their tokens verified at a scripted RFC 7662 endpoint on the loopback
 * origin (`/introspect`, origin.mjs), reached on the Native builds through the `origin` backend.
 * The verifier is scripted so every target sees the same claims for the same token; the real
 * authorization server is exercised by the authorization tests and `npm run qualify`.
 */
import { options as catalog } from './catalog-router';
import { ORIGIN_PORT } from './backend-router';

export const RESOURCE = 'https://mcp.diff.test/mcp';
export const ISSUER = `http://127.0.0.1:${ORIGIN_PORT}`;
export const CLIENT = { id: 'diff-rs', secret: 'diff-rs.secret_1' };

/** Token → the scopes it was granted; any other token is inactive (see origin.mjs). */
export const TOKENS = {
  'diff-all': 'mcp:access echo:call',
  'diff-base': 'mcp:access',
  'diff-nobase': 'echo:call',
} as const;

export const options = {
  ...catalog,
  serverInfo: { name: 'pulse-diff-authz', version: '0.0.1' },
  authorization: {
    resource: RESOURCE,
    issuer: ISSUER,
    introspectionEndpoint: `${ISSUER}/introspect`,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    scopes: ['mcp:access'],
    operations: { echo: ['echo:call'], nothing: [] },
    allowInsecureLoopback: true,
    backend: 'origin',
  },
} as const;
