/**
 * The Fetch handler inside workerd for the differential run: one handler per profile, chosen by the
 * first label of the Host header (`<profile>.diff`), the core given as the imported
 * `WebAssembly.Module` (workerd refuses to compile bytes at run time).
 */
// @ts-expect-error: resolved by workerd's CompiledWasm module rule
import core from './pulse_core.wasm';
import { createMcpHttpHandler } from '../../src/index';
import { profileOptions } from './profiles';

const options = profileOptions();
const handlers = new Map<string, { fetch(req: Request): Promise<Response> }>();

export default {
  async fetch(req: Request): Promise<Response> {
    const profile = (req.headers.get('host') ?? '').split('.')[0] ?? '';
    if (!(profile in options)) return new Response('unknown diff profile', { status: 599 });
    let h = handlers.get(profile);
    if (!h) {
      h = createMcpHttpHandler({ ...options[profile], core } as never) as { fetch(req: Request): Promise<Response> };
      handlers.set(profile, h);
    }
    return h.fetch(req);
  },
};
