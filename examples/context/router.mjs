// The context server's router over the built package (what `npm start` imports): `router`, its
// default export, and `tools`, the compiled tool source. Run `npm run build` first.
import { createRequire } from 'node:module';
import * as pulse from '@pulse-compute/mcp/pulse';
import { declareContextRouter } from './declare.mjs';

const corpus = createRequire(import.meta.url)('./corpus.json');

export const router = declareContextRouter(pulse, corpus);
export const tools = pulse.toolSource(router);
export default router;
