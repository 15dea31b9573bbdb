/**
 * The files `pulse-mcp init` writes: a minimal project serving one static tool and one corpus tool
 * with the static binding, on Node (`npm start`) and on Fastly Compute (the Fastly CLI runs
 * `npm run build`, which writes the Native binary). Kept as text here so the compiled package
 * carries them.
 */

export interface StarterVersions {
  /** This package's version: the starter depends on exactly the package that wrote it. */
  readonly pulse: string;
  /** `@bytecodealliance/wizer`, which the Native build runs. */
  readonly wizer: string;
  /** `typescript`, which the Native build parses the service module with. */
  readonly typescript: string;
}

/** The service module, its Node entry and the Native binary it builds to. */
export const SERVICE_MODULE = 'service.mjs';
export const NODE_ENTRY = 'serve.mjs';
export const WASM_OUT = 'bin/main.wasm';

export function packageJson(name: string, v: StarterVersions): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      start: `node ${NODE_ENTRY}`,
      build: `pulse-mcp build ${SERVICE_MODULE} --target fastly-native --wasm ${WASM_OUT}`,
      diff: `pulse-mcp diff ${SERVICE_MODULE}`,
    },
    dependencies: { '@pulse-compute/mcp': v.pulse },
    devDependencies: { '@bytecodealliance/wizer': v.wizer, typescript: v.typescript },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

export function serviceModule(name: string): string {
  return `/**
 * The service: MCP tools declared at module level and bound with mcp().
 *
 * \`npm run build\` (pulse-mcp build) reads these declarations without running this file and writes
 * the Fastly Compute binary, so they are written statically: literals, module-level consts, JSON
 * imports and the declaration API (EntityRouter, codec, handlers). A value computed by a function of
 * this file is refused with its line and what to write instead. \`npm start\` serves the same server
 * on Node (${NODE_ENTRY}).
 */
import { EntityRouter, codec, handlers, mcp } from '@pulse-compute/mcp/pulse';

const text128 = codec.string({ maxLength: 128 });
const text512 = codec.string({ maxLength: 512 });
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

// A corpus compiled into the service. A larger one can live in a JSON file:
// import notes from './notes.json' with { type: 'json' };
const notes = {
  version: '1',
  entries: [
    {
      id: 'add-a-tool',
      title: 'Add a tool',
      collection: 'notes',
      tags: ['tools'],
      text: 'Add .operation(name, { description, input, output, handler }) to the router in ${SERVICE_MODULE}. Static, corpus and backend handlers run everywhere, Fastly Compute included; a JavaScript function as handler runs on Node only (and on the Fastly JavaScript runtime: pulse-mcp build --target fastly-javascript).',
    },
    {
      id: 'deploy',
      title: 'Deploy on Fastly Compute',
      collection: 'notes',
      tags: ['fastly', 'deploy'],
      text: 'npm run build writes ${WASM_OUT}. fastly compute serve builds it and serves it locally on Viceroy; fastly compute publish builds it and deploys it. npm run diff compares the Node and the Native answers before you deploy.',
    },
    {
      id: 'limits',
      title: 'Limits',
      collection: 'notes',
      tags: ['limits'],
      text: 'The server answers exactly POST /mcp and refuses every request that carries an Origin header. Requests are limited to 32 KiB and 32 JSON levels, replies to 128 KiB, a whole tool result to 24 KiB, and execution to 5 seconds; the limits option of mcp() may only lower them.',
    },
  ],
};

export const router = new EntityRouter('starter', { corpora: { notes } })
  .operation('about', {
    title: 'About this service',
    description: 'What this service is and which tools it has.',
    output: codec.object({ name: text128, summary: text512 }),
    hints: readOnly,
    handler: handlers.static({ name: ${JSON.stringify(name)}, summary: 'An MCP server built with Pulse MCP. search_notes searches its notes: how to add a tool, deploy, and the limits.' }),
  })
  .operation('search_notes', {
    title: 'Search the notes',
    description: 'Full-text search over the notes of this service. Returns ids, titles and snippets.',
    input: codec.object({
      query: codec.string({ minLength: 1, maxLength: 256 }),
      limit: codec.optional(codec.u32({ min: 1, max: 5 })),
    }),
    output: codec.object({
      results: codec.array(codec.object({ id: text128, title: text512, collection: text128, tags: codec.array(text128, { maxItems: 8 }), snippet: text512 }), { maxItems: 5 }),
    }),
    hints: readOnly,
    // A byte cap keeps the result (structured output and its text copy) well inside the 24 KiB budget.
    handler: handlers.corpus({ corpus: 'notes', action: 'search', topK: 5, maxBytes: 4096 }),
  });

export const serverInfo = { name: ${JSON.stringify(name)}, version: '0.1.0' };

export const server = mcp({ router, serverInfo });
`;
}

export const NODE_SERVER = `// npm start: the service on Node at http://127.0.0.1:3000/mcp. HOST (a loopback address: the
// server has no authentication) and PORT override; PORT=0 takes a free port.
import http from 'node:http';
import { isIP } from 'node:net';
import { server, serverInfo } from './${SERVICE_MODULE}';

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT || '3000';
if (!(host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.')))) {
  process.stderr.write(\`${NODE_ENTRY}: HOST=\${host} is not a loopback address (127.0.0.1, ::1, localhost); put a proxy with authentication in front to serve others\\n\`);
  process.exit(1);
}
if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) {
  process.stderr.write(\`${NODE_ENTRY}: PORT=\${port} is not a port number (0 to 65535)\\n\`);
  process.exit(1);
}

const listener = http.createServer(server.nodeListener());
listener.once('error', (e) => {
  process.stderr.write(\`${NODE_ENTRY}: cannot listen on \${host}:\${port}: \${e.code ?? e.message}\\n\`);
  process.exit(1);
});
listener.listen(Number(port), host, () => {
  const { address, port: bound } = listener.address();
  const shown = address.includes(':') ? \`[\${address}]\` : address;
  process.stdout.write(\`\${serverInfo.name} listening on http://\${shown}:\${bound}/mcp\\n\`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    listener.close(() => process.exit(0));
    listener.closeAllConnections();
  });
}
`;

export function fastlyToml(name: string): string {
  return `# The Fastly Compute package manifest: https://www.fastly.com/documentation/reference/compute/fastly-toml/
manifest_version = 3
name = ${JSON.stringify(name)}
description = "An MCP server on Fastly Compute, built with Pulse MCP"
authors = []
language = "other"

[scripts]
# The Fastly CLI runs this before serve, publish and deploy; it writes ${WASM_OUT}.
build = "npm run build"
`;
}

export function readme(name: string): string {
  return `# ${name}

An MCP server: \`${SERVICE_MODULE}\` declares its tools and binds them with \`mcp()\` from
[@pulse-compute/mcp](https://www.npmjs.com/package/@pulse-compute/mcp); it runs on Node and on
Fastly Compute.

\`\`\`sh
npm install
npm start          # http://127.0.0.1:3000/mcp (HOST, PORT)
\`\`\`

Check it with curl:

\`\`\`sh
curl -s http://127.0.0.1:3000/mcp -H content-type:application/json \\
  -H accept:application/json,text/event-stream -H mcp-protocol-version:2026-07-28 \\
  -H mcp-method:tools/call -H mcp-name:search_notes \\
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_notes","arguments":{"query":"deploy"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
\`\`\`

or with the official client:

\`\`\`js
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const client = new Client({ name: 'me', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
console.log(await client.callTool({ name: 'about', arguments: {} }));
\`\`\`

## Fastly Compute

With the [Fastly CLI](https://www.fastly.com/documentation/reference/tools/cli/) installed:

\`\`\`sh
fastly compute serve     # runs npm run build (${WASM_OUT}), then serves it locally on Viceroy
fastly compute publish   # builds and deploys it (needs a Fastly account)
\`\`\`

\`npm run build\` is \`pulse-mcp build ${SERVICE_MODULE} --target fastly-native --wasm ${WASM_OUT}\`: it reads
the declarations without running \`${SERVICE_MODULE}\`, so they stay static (literals, module-level
consts, JSON imports).

\`npm run diff\` (\`pulse-mcp diff ${SERVICE_MODULE}\`) serves the tools on Node and as the built binary and
prints every answer on which they disagree: run it before you deploy.
`;
}

export const GITIGNORE = `node_modules/
bin/
pkg/
`;

/** The starter's files, by path, in the order they are listed. */
export function starterFiles(name: string, versions: StarterVersions): Record<string, string> {
  return {
    'package.json': packageJson(name, versions),
    [SERVICE_MODULE]: serviceModule(name),
    [NODE_ENTRY]: NODE_SERVER,
    'fastly.toml': fastlyToml(name),
    'README.md': readme(name),
    '.gitignore': GITIGNORE,
  };
}
