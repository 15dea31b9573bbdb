// Bench server: the Pulse Node host from the built package, on 127.0.0.1 (ephemeral port printed).
import http from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createMcpNodeHandler } = require('../../dist/cjs/node.js');
const server = http.createServer(createMcpNodeHandler({ serverInfo: { name: 'bench', version: '1.0.0' } }));
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
