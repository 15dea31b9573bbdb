/**
 * The Fetch handler inside workerd for the differential run: one handler per Host header
 * (`<profile>.diff`, or `<profile>.<sequence>.diff` for a rate-limit sequence, which gets a handler
 * and so a count of its own), the profile its first label, the core given as the imported
 * `WebAssembly.Module` (workerd refuses to compile bytes at run time). The host adapters' profiles
 * go through createMcpHttpHandler, the static-binding fixtures through mcp(...).handle(ctx). The
 * client address is miniflare's CF-Connecting-IP, which it sets from the TCP peer as Cloudflare
 * sets it from the client (miniflare keeps one the client sent; the run never sends one).
 * `refusal.<n>.diff` builds the rate-limit refusal row n here and answers what was refused.
 */
// @ts-expect-error: resolved by workerd's CompiledWasm module rule
import core from './pulse_core.wasm';
import { createMcpHttpHandler } from '../../src/index';
import { Engine } from '../../src/core/engine';
import { resolveOptions } from '../../src/options';
import { mcp } from '../../src/pulse';
import { profileOptions } from './profiles';
import { RATE_LIMIT_PROFILES, REFUSALS, refusedConfig, refusedOptions } from './rate-limit';
import { STATIC_BINDINGS } from './static-bindings';

type Handler = { fetch(req: Request, info: { clientAddress?: string }): Promise<Response> };

const options: Record<string, unknown> = { ...profileOptions(), ...RATE_LIMIT_PROFILES };
const handlers = new Map<string, Handler>();

function handlerOf(profile: string): Handler | undefined {
  if (profile in options) return createMcpHttpHandler({ ...(options[profile] as object), core } as never) as Handler;
  const b = STATIC_BINDINGS[profile];
  if (b === undefined) return undefined;
  const server = mcp({ router: b.router, ...b.options, core } as never);
  return { fetch: (request, info) => server.handle({ request, ...info }) };
}

/** Builds refusal row `n` as the Fetch host would, and answers the message it was refused with. */
function refusal(n: number): Response {
  const r = REFUSALS[n];
  if (r === undefined) return new Response('unknown refusal row', { status: 599 });
  try {
    const o = { ...refusedOptions(r), core };
    if (r.profile === undefined) createMcpHttpHandler(o as never);
    else {
      const resolved = resolveOptions(o);
      Engine.create(refusedConfig(r, resolved.configJson), resolved.core);
    }
    return Response.json({ accepted: true });
  } catch (e) {
    return Response.json({ refused: (e as Error).message });
  }
}

export default {
  async fetch(req: Request): Promise<Response> {
    const host = req.headers.get('host') ?? '';
    const [profile = '', second] = host.split('.');
    if (profile === 'refusal') return refusal(Number(second));
    let h = handlers.get(host);
    if (!h) {
      h = handlerOf(profile);
      if (!h) return new Response('unknown diff profile', { status: 599 });
      handlers.set(host, h);
    }
    const address = req.headers.get('cf-connecting-ip');
    return h.fetch(req, address === null ? {} : { clientAddress: address });
  },
};
