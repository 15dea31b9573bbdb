/**
 * The bench's catalog-backed edge module: `echo` as a catalog-backed tool whose JSON-RPC endpoint is
 * the Fastly backend `origin` (tools/bench/server-upstream.mjs's `/rpc`; the Viceroy configuration
 * written by tools/bench/extra/viceroy.mjs points `origin` at its port). Built for Fastly Native: the
 * build evaluates it in plain Node, so the tool comes from the built package (../echo-catalog.mjs).
 */
import { fileURLToPath } from 'node:url';
import { echoArtifacts } from '../echo-catalog.mjs';

const { catalog, schemas } = echoArtifacts(fileURLToPath(new URL('../../../dist/cjs', import.meta.url)));

export const options = {
  serverInfo: { name: 'bench', version: '1.0.0' },
  tools: { catalog, schemas, routerId: 'bench', target: 'fastly-native', endpoint: 'http://127.0.0.1:7681/rpc', backend: 'origin' },
};
