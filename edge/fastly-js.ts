/**
 * The Fastly JavaScript package of the edge service (optional; `npm run edge:build:js`): the deployed
 * static binding (edge/context.mjs) served from js-compute. js-compute has no `WebAssembly`, so the
 * core runs as its wasm2js build (the loader's fallback): measured far slower than the Native
 * service, and the binding's 5 s execution limit is not realized here (a timer cannot interrupt
 * synchronous JavaScript). Fastly Native is the deployment target; this package exists for routers
 * with JavaScript handlers and for the differential run.
 */
import { server } from './context.mjs';

interface FetchEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}

// `export default { fetch }` builds but answers 500 at run time in js-compute 3.46.
(globalThis as unknown as { addEventListener(type: 'fetch', cb: (e: FetchEvent) => void): void }).addEventListener('fetch', (event) => {
  event.respondWith(server.handle({ request: event.request }));
});
