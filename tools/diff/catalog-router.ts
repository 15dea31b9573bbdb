/**
 * The differential run's catalog-backed tools: the artifacts of a governed backend whose JSON-RPC
 * endpoint is the loopback origin (origin.mjs, `/rpc`), served by every target from those artifacts
 * alone. One operation per governed outcome; the handlers here are never run (only the artifacts
 * leave this file). The origin admits only BACKEND_TOKEN, so a target that sent another credential
 * (or none) would disagree.
 */
import { compileRouter } from '../../src/compiler';
import { EntityRouter, codec } from '../../src/pulse';
import { routerDefinition } from '../../src/router/router';
import { ORIGIN_PORT } from './backend-router';

export const BACKEND_TOKEN = 'diff-backend.token_1';

const q = codec.object({ q: codec.string({ maxLength: 64 }) });
const unused = () => ({ q: '' });
const router = new EntityRouter('diffcatalog')
  .operation('echo', { title: 'Echo', input: q, output: q, hints: { readOnlyHint: true }, handler: unused })
  .operation('nothing', { description: 'No input, no output', handler: () => undefined })
  .operation('wrongshape', { input: q, output: q, handler: unused })
  .operation('exec', { input: q, output: q, handler: unused })
  .operation('params', { input: q, output: q, handler: unused })
  .operation('wrongid', { input: q, output: q, handler: unused })
  .operation('unknown', { input: q, output: q, handler: unused })
  .operation('slow', { input: q, output: q, handler: unused })
  .operation('notjson', { input: q, output: q, handler: unused });

const { catalog, schemaRegistry } = compileRouter(routerDefinition(router));

/** The 1 s request deadline cuts `slow` short. */
export const options = {
  serverInfo: { name: 'pulse-diff-catalog', version: '0.0.1' },
  limits: { deadlineMs: 1000 },
  tools: {
    catalog,
    schemas: schemaRegistry,
    routerId: 'diffcatalog',
    target: 'node-javascript',
    endpoint: `http://127.0.0.1:${ORIGIN_PORT}/rpc`,
    backend: 'origin',
    backendBearerToken: BACKEND_TOKEN,
  },
} as const;
