/**
 * The bench's authorized edge module: the catalog-backed module's service behind `authorization`
 * with `authorization.cache`, so a warm token is answered from Fastly's core cache instead of the
 * issuer. The issuer is a loopback introspection endpoint reached as the Fastly backend `issuer`
 * and the client secret is read from the secret store `bench` (tools/bench/extra/viceroy.mjs
 * starts the endpoint, answering for this issuer and resource, and writes both into the Viceroy
 * configuration). Built for Fastly Native.
 */
import { options as catalog } from './catalog.mjs';

export const options = {
  ...catalog,
  authorization: {
    resource: 'http://127.0.0.1:1/mcp',
    issuer: 'http://127.0.0.1:1',
    introspectionEndpoint: 'http://127.0.0.1:1/introspect',
    clientId: 'bench',
    clientSecret: { secretStore: 'bench', key: 'introspection' },
    scopes: ['mcp:access'],
    // `echo` for any token with the scopes: the rate limit's group calls it.
    operations: { echo: [] },
    allowInsecureLoopback: true,
    // The longest the core allows: a measured window never outlives the entry.
    cache: { maxAgeMs: 60_000 },
  },
};
