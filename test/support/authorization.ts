/**
 * The smallest authorized surface the authorization tests use: one catalog-backed tool, `status`,
 * that needs the baseline scope only, and the resource-server options around an issuer.
 */
import { compileRouter } from '../../src/compiler';
import { EntityRouter } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';

const router = new EntityRouter('notes').operation('status', { description: 'Baseline access', handler: () => undefined });
const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));

/** `tools` and `authorization` options: `status` behind `scopes`, introspected at `issuer`. */
export function statusBehindIssuer(o: { resource: string; issuer: string; endpoint: string; scopes?: string[]; extra?: Record<string, unknown> }) {
  return {
    tools: { catalog, schemas: schemaRegistry, routerId: 'notes', target: 'node-javascript', endpoint: o.endpoint },
    authorization: {
      resource: o.resource,
      issuer: o.issuer,
      introspectionEndpoint: `${o.issuer}/introspect`,
      clientId: 'rs',
      clientSecret: 'rs-secret',
      scopes: o.scopes ?? ['mcp:access'],
      operations: { status: [] },
      ...o.extra,
    },
  };
}
