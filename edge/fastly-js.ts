/**
 * The Fastly JavaScript package of the edge service (optional second target; `npm run edge:build:js`).
 * js-compute has no `WebAssembly`, so the core runs as its wasm2js build (the loader's fallback):
 * measured far slower than the Native service, and the CPU deadline is not realized here (a timer
 * cannot interrupt synchronous JavaScript). Routers with JavaScript handlers can only ship this way.
 */
import { createMcpHttpHandler } from '../src/index';
import { toolSource } from '../src/router';
import { options, router } from './router';

interface FetchEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

const handler = createMcpHttpHandler({ ...options, tools: toolSource(router) });

// `export default { fetch }` builds but answers 500 at run time in js-compute 3.46.
(globalThis as unknown as { addEventListener(type: 'fetch', cb: (e: FetchEvent) => void): void }).addEventListener('fetch', (event) => {
  event.respondWith(handler.fetch(event.request));
});
