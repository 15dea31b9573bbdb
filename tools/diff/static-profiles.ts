/**
 * Profiles served by the static binding, mcp() from /pulse: on Node by the binding itself through
 * its listener, on the Native targets by a build embedding the binding's configuration (exact
 * POST /mcp, every Origin refused, the static ceilings lowered by the binding's limits; the options
 * below are that configuration's input); workerd serves the fixtures through handle(ctx)
 * (./static-bindings.ts), not the deployed module, which binds at module level without the
 * precompiled core workerd needs (the Fastly JavaScript package serves that one).
 *   example  the deployed service, edge/context.mjs: its own `server` on Node; on the Native targets
 *            the configuration `npm run edge:build` embeds, read from the module by pulse-mcp build
 *   backend  the backend-call fixtures (backend-router.ts)
 *   surface  the 2026-07-28 surface fixtures (surface-router.ts), content blocks switched on
 *   static   the ceilings the deployed tools never reach (static-router.ts)
 * And the rows holding these services to the ceilings, each with its exact answer.
 */
import { compileRouter } from '../../src/compiler';
import { staticOptions } from '../../src/router/bind';
import { mcp, STATIC_LIMITS, type EntityRouter, type McpNodeHandler } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { envelope, modernHeaders, META } from '../../test/support/fixtures';
import { server as deployed } from '../../edge/context.mjs';
import { edgeService } from '../../scripts/edge-lib.mjs';
import { STATIC_BINDINGS } from './static-bindings';
import type { Case } from './corpus';

export interface StaticProfile {
  /** What the Native build is configured from (through the static binding's option validation). */
  readonly options: Record<string, unknown>;
  /** What Node serves: the binding's own listener. */
  readonly listener: McpNodeHandler;
}

/** A row with the answer every target must give, byte for byte (`bytes`: the body's length only). */
export interface StaticCase extends Case {
  readonly expect: { readonly status: number; readonly body?: string; readonly bytes?: number };
}

/** The Native configuration's input for a router bound with `binding`, as the build makes it. */
function nativeOptions(router: EntityRouter, binding: Record<string, unknown>): Record<string, unknown> {
  return { ...staticOptions(binding), tools: { manifest: compileRouter(routerDefinition(router)).manifest } };
}

function bound(router: EntityRouter, binding: Record<string, unknown>): StaticProfile {
  return { options: nativeOptions(router, binding), listener: mcp({ router, ...binding } as never).nodeListener() };
}

export async function staticProfiles(): Promise<Record<string, StaticProfile>> {
  const edge = await edgeService('edge/context.mjs');
  const fixtures = Object.entries(STATIC_BINDINGS).map(([name, b]) => [name, bound(b.router, b.options)] as const);
  return { example: { options: edge.options, listener: deployed.nodeListener() }, ...Object.fromEntries(fixtures) };
}

const post = (headers: [string, string][], body: string) => ({ method: 'POST', path: '/mcp', headers, body });
const padded = (bytes: number) => {
  const text = envelope('server/discover', 1);
  return post(modernHeaders('server/discover'), text + ' '.repeat(bytes - Buffer.byteLength(text)));
};
const call = (name: string, id: string | number = 1) => post(modernHeaders('tools/call', name), envelope('tools/call', id, { name, _meta: META }));

const DISCOVERED = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":false}},"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"pulse-context","version":"0.1.0"}}}}';

export function staticCases(): StaticCase[] {
  const c = (profile: string, name: string, request: Case['request'], expect: StaticCase['expect'], timeoutMs?: number): StaticCase => ({
    name: `${profile}: ${name}`,
    profile,
    request,
    expect,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return [
    c('example', 'a body of exactly 32 KiB is read', padded(STATIC_LIMITS.requestBytes), { status: 200, body: DISCOVERED }),
    c('example', 'a body of 32 KiB + 1 is refused', padded(STATIC_LIMITS.requestBytes + 1), { status: 413, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request body too large"}}' }),
    c('example', 'a supplied Origin is refused', { ...post(modernHeaders('server/discover'), envelope('server/discover', 1)), headers: [...modernHeaders('server/discover'), ['origin', 'http://127.0.0.1']] }, { status: 403, body: '' }),
    c('example', 'only POST /mcp: /mcp/ is not it', { ...post(modernHeaders('server/discover'), envelope('server/discover', 1)), path: '/mcp/' }, { status: 404, body: '' }),
    c('static', 'a tool result of exactly 24 KiB', call('at_ceiling'), { status: 200, bytes: '{"jsonrpc":"2.0","id":1,"result":}'.length + STATIC_LIMITS.toolResultBytes }),
    c('static', 'a tool result of 24 KiB + 1', call('over_ceiling'), { status: 500, body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Tool result too large"}}' }),
    c('static', 'a handler past 5 s', call('stalls', 'stall-1'), { status: 408, body: '{"jsonrpc":"2.0","id":"stall-1","error":{"code":-32603,"message":"Request interrupted"}}' }, STATIC_LIMITS.deadlineMs + 4000),
  ];
}
