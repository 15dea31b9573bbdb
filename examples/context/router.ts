/**
 * The context server's router (source entry): the default export and `router`. Hosts bind it with
 * `toolSource(router)` or `mcp({ router, serverInfo })`.
 */
import * as pulse from '../../src/pulse';
import corpus from './corpus.json';
import { declareContextRouter } from './declare.mjs';

export const router: pulse.EntityRouter = declareContextRouter(pulse, corpus);
export default router;
