// Request telemetry on Node: every request becomes an OpenTelemetry server span (MCP semantic
// conventions) printed by the SDK's ConsoleSpanExporter, and the raw request event is logged from
// the `pulse-mcp:request` diagnostics channel. Serves the package's static binding on
// http://127.0.0.1:3000/mcp (HOST and PORT override; loopback only).
//   node examples/telemetry/server.mjs
import dc from 'node:diagnostics_channel';
import http from 'node:http';
import { isIP } from 'node:net';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { codec, EntityRouter, mcp, REQUEST_CHANNEL } from '@pulse-compute/mcp/pulse';
import { instrument } from '@pulse-compute/mcp/otel';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
const loopback = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
if (!loopback) {
  process.stderr.write(`HOST: ${host} is not a loopback address; this example serves loopback only\n`);
  process.exit(1);
}

// A real exporter: the SDK's console exporter. Production would use an OTLP exporter instead.
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }));
instrument();
// The event itself, for logs: the channel has a subscriber, so the hosts build and publish it.
dc.subscribe(REQUEST_CHANNEL, (event) => process.stdout.write(`request event ${JSON.stringify(event)}\n`));

const router = new EntityRouter('telemetry-example').operation('echo', {
  description: 'Echoes its text',
  input: codec.object({ text: codec.string({ maxLength: 256 }) }),
  output: codec.object({ text: codec.string({ maxLength: 256 }) }),
  handler: (_ctx, input) => ({ text: input.text }),
});
const server = http.createServer(mcp({ router, serverInfo: { name: 'telemetry-example', version: '1.0.0' } }).nodeListener());
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  const shown = address.includes(':') ? `[${address}]` : address;
  process.stdout.write(`Pulse MCP with telemetry listening on http://${shown}:${bound}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
