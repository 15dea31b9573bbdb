/**
 * The Fetch handler inside workerd for the differential run: one handler per profile, chosen by the
 * first label of the Host header (`<profile>.diff`), the core given as the imported
 * `WebAssembly.Module` (workerd refuses to compile bytes at run time). The host adapters' profiles
 * go through createMcpHttpHandler, the static-binding fixtures through mcp(...).handle(ctx).
 */
// @ts-expect-error: resolved by workerd's CompiledWasm module rule
import core from './pulse_core.wasm';
import { createMcpHttpHandler } from '../../src/index';
import { mcp } from '../../src/pulse';
import { profileOptions } from './profiles';
import { STATIC_BINDINGS } from './static-bindings';

type Handler = { fetch(req: Request): Promise<Response> };

const options = profileOptions();
const handlers = new Map<string, Handler>();

function handlerOf(profile: string): Handler | undefined {
  if (profile in options) return createMcpHttpHandler({ ...options[profile], core } as never) as Handler;
  const b = STATIC_BINDINGS[profile];
  if (b === undefined) return undefined;
  const server = mcp({ router: b.router, ...b.options, core } as never);
  return { fetch: (request) => server.handle({ request }) };
}

export default {
  async fetch(req: Request): Promise<Response> {
    const profile = (req.headers.get('host') ?? '').split('.')[0] ?? '';
    let h = handlers.get(profile);
    if (!h) {
      h = handlerOf(profile);
      if (!h) return new Response('unknown diff profile', { status: 599 });
      handlers.set(profile, h);
    }
    return h.fetch(req);
  },
};
