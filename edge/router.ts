/**
 * The deployed edge service: which router Fastly serves and the handler options it is bound with.
 * `npm run edge:build` compiles this module into the engine configuration embedded in the Native
 * binary (native/edge); `npm run edge:build:js` bundles it into the Fastly JavaScript package.
 * Every operation must be native (static, corpus, backend): JavaScript handlers fail the Native build.
 */
import { router } from '../examples/context/router';

export { router };

/** createMcpHttpHandler options without `tools` (the router provides them). */
export const options = {
  serverInfo: { name: 'pulse-context', version: '0.1.0' },
} as const;
