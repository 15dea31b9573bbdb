// The acceptance's Fastly project, as a user builds one: in an empty directory outside the checkout,
// on a PATH of exactly node, npm, npx and sh (no Rust toolchain), `pulse-mcp init` from the tarball,
// `npm install`, then the pinned Fastly CLI builds it and serves it on the pinned Viceroy, where the
// official client uses it and the binding's admission rules hold. `pulse-mcp diff` finds the Node
// and Native answers alike and `pulse-mcp build --evidence` records it. The project then fronts a
// loopback backend (its router built by the installed `pulse-mcp build`) behind a real OAuth issuer,
// its service.mjs rewritten to host options, and the build refuses what fastly.toml does not
// declare before it serves scoped calls on Viceroy.
// The issuer (oidc-provider), the official client, the Fastly CLI and Viceroy are the repository's
// own peers and tools; the project uses only the tarball and what npm installs for it.
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, appendFileSync, constants, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { FASTLY } from '../../scripts/edge-lib.mjs';
import { ensureViceroy } from '../../scripts/viceroy.mjs';
import { freePort, run, start, waitForPort, withTimeout } from '../qualify/lib.mjs';

/** The commands the project needs on its PATH, and nothing else. */
const COMMANDS = ['node', 'npm', 'npx', 'sh'];
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'pulse-acceptance', version: '1.0.0' },
};
/** The static binding's request ceiling (32 KiB). */
const REQUEST_BYTES = 32768;
const STARTER_FILES = ['.gitignore', 'README.md', 'fastly.toml', 'package.json', 'serve.mjs', 'service.mjs'];
const TARGETS = ['fastly-native', 'node-javascript', 'node-native'];
// The names the rewritten service gives Fastly: its backends and the introspection secret's place.
const BACKEND = 'notes';
const STORE = 'edge';
const SECRET_KEY = 'introspection-secret';

/** The first executable `cmd` on the acceptance's own PATH. */
function which(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  throw new Error(`${cmd} is not on PATH`);
}

/** One MCP request as a JSON text and its headers. */
function mcpRequest(id, method, params = {}) {
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (method === 'tools/call') headers['mcp-name'] = params.name;
  return { body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }), headers };
}

/** POSTs `body` (a string, sent as is) with the JSON/SSE Accept list. */
async function send(url, body, headers = {}) {
  const r = await withTimeout(
    fetch(url, { method: 'POST', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers }, body }),
    10_000,
    `POST ${url}`,
  );
  return { status: r.status, headers: r.headers, text: await r.text() };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');
const lastLines = (text, n = 3) => text.trim().split('\n').slice(-n).join(' / ');

/**
 * Runs the edge project's steps with run.mjs's `step`, `need` and `sh`, the tarball it packed, its
 * npm environment (and so its npm cache) and its `connect` (the official client, pinned). Every
 * process and server started here is stopped before it returns, on failure too.
 */
export async function edgeProject({ root, scratch, tarball, npmEnv, step, need, sh, connect }) {
  const base = join(scratch, 'edge');
  const bin = join(base, 'path');
  const empty = join(base, 'project');
  const app = join(empty, 'app');
  const env = { ...npmEnv, PATH: bin };
  // The Fastly CLI keeps its configuration in HOME: a new one, as on a machine that never ran it.
  // It would annotate the binary with metadata, announcing that once with a 5 s pause, and fetch
  // wasm-tools from GitHub for it on every build: metadata off, and its proxy a closed loopback
  // port, so it never waits on the network (the build needs none).
  const closed = `http://127.0.0.1:${await freePort()}`;
  const fastlyEnv = { ...env, HOME: join(base, 'fastly-home'), FASTLY_WASM_METADATA_DISABLE: 'true', HTTPS_PROXY: closed, HTTP_PROXY: closed, NO_PROXY: '127.0.0.1' };
  const npx = (args, timeoutMs = 60_000) => run('npx', ['--no-install', 'pulse-mcp', ...args], { cwd: app, env, timeoutMs });
  const fastly = (args, timeoutMs) => run(FASTLY, ['compute', ...args, '--non-interactive'], { cwd: app, env: fastlyEnv, timeoutMs });
  const s = {};
  const started = [];

  /** `fastly compute serve` on the pinned Viceroy at 127.0.0.1:port; resolves once the port accepts. */
  async function serve(port) {
    need(s.viceroy, 'no Viceroy');
    const p = start(FASTLY, ['compute', 'serve', '--non-interactive', '--skip-build', `--viceroy-path=${s.viceroy}`, '--addr', `127.0.0.1:${port}`], { cwd: app, env: fastlyEnv });
    started.push(p);
    await waitForPort(port, 30_000, p.exited).catch((e) => {
      throw new Error(`fastly compute serve: ${e.message}: ${lastLines(p.out.stdout + p.out.stderr)}`);
    });
    return { p, url: `http://127.0.0.1:${port}/mcp` };
  }

  /** The backend's request lines written while fn runs. */
  async function backendLines(fn) {
    need(s.backend, 'no backend');
    const mark = s.backend.out.stdout.length;
    await fn();
    // The backend logs before it answers, so its line is in by the time the call returned.
    return s.backend.out.stdout.slice(mark).split('\n').filter(Boolean);
  }

  try {
    await step('edge project: the pinned Viceroy (.tools/viceroy, built when missing)', async () => {
      s.viceroy = ensureViceroy();
      const v = sh(await run(s.viceroy, ['--version'], { timeoutMs: 10_000 }), 'viceroy --version');
      return v.stdout.trim();
    });

    await step(`edge project: a PATH of exactly ${COMMANDS.join(', ')}; command -v cargo and rustc fail under it`, async () => {
      mkdirSync(bin, { recursive: true });
      for (const c of COMMANDS) symlinkSync(c === 'node' ? process.execPath : which(c), join(bin, c));
      for (const c of ['cargo', 'rustc']) {
        const r = await run('sh', ['-c', `command -v ${c}`], { env, timeoutMs: 10_000 });
        need(r.code !== 0 && r.stdout === '', `command -v ${c}: exit ${r.code}, ${JSON.stringify(r.stdout.trim())}`);
      }
      // The same probe finds what is there.
      const found = sh(await run('sh', ['-c', `for c in ${COMMANDS.join(' ')}; do command -v "$c"; done`], { env, timeoutMs: 10_000 }), 'command -v');
      need(isDeepStrictEqual(found.stdout.trim().split('\n'), COMMANDS.map((c) => join(bin, c))), `command -v found ${JSON.stringify(found.stdout)}`);
      s.path = true;
    });

    await step('edge project: npx -p <tarball> pulse-mcp init app, in an empty directory outside the checkout', async () => {
      need(tarball && s.path, 'no tarball or PATH');
      mkdirSync(empty, { recursive: true });
      need(readdirSync(empty).length === 0 && relative(root, empty).startsWith('..'), `${empty} is not an empty directory outside the checkout`);
      s.t0 = performance.now();
      // --yes: npx asks before installing a package unless told, and nothing here answers.
      sh(await run('npx', ['--yes', '-p', tarball, 'pulse-mcp', 'init', 'app'], { cwd: empty, env, timeoutMs: 120_000 }), 'npx pulse-mcp init app');
      const files = readdirSync(app).sort();
      need(isDeepStrictEqual(files, STARTER_FILES), `init wrote ${files.join(', ')}`);
      return files.join(', ');
    });

    await step('edge project: npm install <tarball>, then npm install (Wizer and TypeScript from the registry)', async () => {
      need(s.t0, 'no project');
      sh(await run('npm', ['install', tarball], { cwd: app, env, timeoutMs: 300_000 }), 'npm install <tarball>');
      sh(await run('npm', ['install'], { cwd: app, env, timeoutMs: 300_000 }), 'npm install');
      s.installed = performance.now();
      const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
      const version = (name) => JSON.parse(readFileSync(join(app, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
      for (const [name, wanted] of Object.entries(pkg.devDependencies)) need(version(name) === wanted, `${name} ${version(name)} installed, ${wanted} pinned`);
      need(pkg.dependencies['@pulse-compute/mcp'].startsWith('file:'), `the dependency is ${pkg.dependencies['@pulse-compute/mcp']}`);
      return `${Object.entries(pkg.devDependencies).map(([n, v]) => `${n} ${v}`).join(', ')}; ${seconds(s.installed - s.t0)} since the empty directory`;
    });

    await step('edge project: fastly compute build (the pinned Fastly CLI runs npm run build: pulse-mcp build --target fastly-native)', async () => {
      need(s.installed, 'no installed project');
      const r = sh(await fastly(['build'], 180_000), 'fastly compute build');
      need(r.stdout.includes('SUCCESS: Built package (pkg/app.tar.gz)'), `fastly compute build printed ${JSON.stringify(lastLines(r.stdout))}`);
      const wasm = readFileSync(join(app, 'bin/main.wasm'));
      need(wasm.subarray(0, 4).toString('hex') === '0061736d', 'bin/main.wasm is not WebAssembly');
      s.built = true;
      return `bin/main.wasm ${wasm.length} B, pkg/app.tar.gz`;
    });

    await step('edge project: fastly compute pack and fastly compute validate accept the binary', async () => {
      need(s.built, 'no build');
      sh(await fastly(['pack', '--wasm-binary', 'bin/main.wasm'], 60_000), 'fastly compute pack');
      const r = sh(await fastly(['validate', '--package', 'pkg/app.tar.gz'], 60_000), 'fastly compute validate');
      need(/SUCCESS: Validated package/.test(r.stdout), `fastly compute validate printed ${JSON.stringify(lastLines(r.stdout))}`);
    });

    await step('edge project: fastly compute serve on the pinned Viceroy, until the first 200', async () => {
      need(s.built, 'no build');
      s.serve = await serve(await freePort());
      const discover = mcpRequest(1, 'server/discover');
      const deadline = Date.now() + 15_000;
      let r;
      do {
        r = await send(s.serve.url, discover.body, discover.headers).catch((e) => ({ status: 0, text: e.message }));
        if (r.status !== 200) await new Promise((ok) => setTimeout(ok, 50));
      } while (r.status !== 200 && Date.now() < deadline);
      const first = performance.now();
      need(r.status === 200 && JSON.parse(r.text).result?.resultType === 'complete', `discovery: ${r.status} ${r.text.slice(0, 200)}`);
      return `${s.serve.url}; time to the first 200: ${seconds(first - s.t0)} from the empty directory, ${seconds(first - s.installed)} after npm install`;
    });

    await step("edge project on Viceroy: the official client lists the starter's tools and calls each", async () => {
      need(s.serve, 'not served');
      const client = await connect(s.serve.url);
      try {
        const { tools } = await client.listTools();
        need(tools.map((t) => t.name).sort().join() === 'about,search_notes', `tools ${tools.map((t) => t.name)}`);
        const about = await client.callTool({ name: 'about', arguments: {} });
        need(about.isError !== true && about.structuredContent?.name === 'app', `about: ${JSON.stringify(about).slice(0, 200)}`);
        const search = await client.callTool({ name: 'search_notes', arguments: { query: 'deploy' } });
        const ids = search.structuredContent?.results?.map((r) => r.id) ?? [];
        need(search.isError !== true && ids[0] === 'deploy', `search_notes: ${JSON.stringify(search).slice(0, 200)}`);
        return `about, search_notes (first hit ${ids[0]})`;
      } finally {
        await client.close();
      }
    });

    await step(`edge project on Viceroy: a ${REQUEST_BYTES}-byte body 200, ${REQUEST_BYTES + 1} bytes 413, an Origin header 403`, async () => {
      need(s.serve, 'not served');
      const { body, headers } = mcpRequest(1, 'server/discover');
      const padded = (n) => body + ' '.repeat(n - Buffer.byteLength(body));
      const at = await send(s.serve.url, padded(REQUEST_BYTES), headers);
      need(at.status === 200 && JSON.parse(at.text).result?.resultType === 'complete', `${REQUEST_BYTES} bytes: ${at.status} ${at.text.slice(0, 200)}`);
      const over = await send(s.serve.url, padded(REQUEST_BYTES + 1), headers);
      need(over.status === 413, `${REQUEST_BYTES + 1} bytes: ${over.status} ${over.text.slice(0, 200)}`);
      need(isDeepStrictEqual(JSON.parse(over.text), { jsonrpc: '2.0', error: { code: -32600, message: 'Request body too large' } }), `the 413 body ${over.text.slice(0, 200)}`);
      const origin = await send(s.serve.url, body, { ...headers, origin: 'http://127.0.0.1' });
      need(origin.status === 403 && origin.text === '', `with an Origin: ${origin.status} ${JSON.stringify(origin.text.slice(0, 200))}`);
      return '200, 413 -32600 "Request body too large", 403 with an empty body';
    });

    if (s.serve) await s.serve.p.stop(2000);

    await step("edge project: pulse-mcp diff service.mjs --viceroy <pinned Viceroy> on the starter's service: no disagreement", async () => {
      need(s.built, 'no project');
      const r = sh(await npx(['diff', 'service.mjs', '--viceroy', s.viceroy], 120_000), 'pulse-mcp diff');
      need(/^ {2}fastly-native +viceroy /m.test(r.stdout), `Viceroy was not a target: ${r.stdout.split('\n').slice(0, 5).join(' / ')}`);
      const summary = r.stdout.trim().split('\n').at(-1);
      need(/ cases × 2 targets against node-javascript: all alike /.test(summary), `diff said ${JSON.stringify(summary)}`);
      const report = JSON.parse(readFileSync(join(app, 'diff-evidence.json'), 'utf8'));
      const operations = Object.entries(report.routers?.starter?.operations ?? {});
      need(operations.length === 2, `the report names ${operations.length} operations`);
      for (const [name, counts] of operations) need(TARGETS.every((t) => counts[t] > 0), `${name}: ${JSON.stringify(counts)}`);
      s.evidence = true;
      return summary.slice(0, summary.indexOf(' (requests'));
    });

    await step('edge project: pulse-mcp build service.mjs --target fastly-native --out build --evidence diff-evidence.json', async () => {
      need(s.evidence, 'no evidence report');
      sh(await npx(['build', 'service.mjs', '--target', 'fastly-native', '--out', 'build', '--evidence', 'diff-evidence.json']), 'pulse-mcp build --evidence');
      const inspection = JSON.parse(readFileSync(join(app, 'build/entities-inspection.json'), 'utf8'));
      need(inspection.operations.map((o) => o.name).sort().join() === 'about,search_notes', `operations ${inspection.operations.map((o) => o.name)}`);
      for (const o of inspection.operations) {
        const targets = o.evidence?.targets?.map((t) => t.target).sort();
        need(isDeepStrictEqual(targets, TARGETS) && o.evidence.targets.every((t) => t.cases > 0), `${o.name}: evidence ${JSON.stringify(o.evidence)}`);
      }
      return `${inspection.operations.length} operations, each with evidence from ${TARGETS.join(', ')}`;
    });

    await step('edge project: backend-router.mjs built by the installed pulse-mcp build, served with jsonRpc(router) on loopback', async () => {
      need(s.built, 'no project');
      for (const f of ['backend-router.mjs', 'backend.mjs']) cpSync(join(root, 'tools/acceptance/fixtures/edge-project', f), join(app, f));
      sh(await npx(['build', 'backend-router.mjs', '--out', 'build']), 'pulse-mcp build backend-router.mjs');
      const catalog = JSON.parse(readFileSync(join(app, 'build/entities-catalog.json'), 'utf8'));
      need(catalog.routerId === 'notes', `the catalog is router ${catalog.routerId}`);
      s.note = `note ${randomBytes(6).toString('hex')}`;
      s.backendPort = await freePort();
      const p = start('node', ['backend.mjs'], { cwd: app, env: { PATH: bin, PORT: String(s.backendPort), NOTE: s.note } });
      started.push(p);
      await waitForPort(s.backendPort, 15_000, p.exited).catch((e) => {
        throw new Error(`backend.mjs: ${e.message}: ${lastLines(p.out.stderr)}`);
      });
      s.backend = p;
      return `router notes, backend on 127.0.0.1:${s.backendPort}`;
    });

    await step('edge project: an OAuth issuer (oidc-provider) on loopback for the service', async () => {
      // Loaded only here: oidc-provider prints its development warnings as it loads and starts.
      const { startIssuer } = await import('../../examples/oauth/issuer.mjs');
      s.port = await freePort();
      s.resource = `http://127.0.0.1:${s.port}/mcp`;
      s.issuer = await startIssuer({ resource: s.resource, redirectUris: ['http://127.0.0.1:1/callback'] });
      const meta = await withTimeout(fetch(`${s.issuer.url}/.well-known/openid-configuration`), 10_000, 'issuer metadata');
      const doc = await meta.json();
      need(meta.status === 200 && doc.issuer === s.issuer.url && typeof doc.introspection_endpoint === 'string', `issuer metadata: ${meta.status} ${JSON.stringify(doc).slice(0, 200)}`);
      s.introspection = doc.introspection_endpoint;
      return `${s.issuer.url}, resource ${s.resource}`;
    });

    await step('edge project: service.mjs becomes host options (catalog-backed tools, authorization); the build refuses what fastly.toml does not declare', async () => {
      need(s.backend && s.issuer, 'no backend or issuer');
      const q = (v) => `'${v.replace(/['\\]/g, '\\$&')}'`;
      writeFileSync(join(app, 'service.mjs'), `// The notes backend's tools at the edge, behind OAuth.
import catalog from './build/entities-catalog.json' with { type: 'json' };
import schemas from './build/schema-json-registry.json' with { type: 'json' };

export const options = {
  tools: {
    catalog,
    schemas,
    routerId: 'notes',
    target: 'node-javascript',
    endpoint: ${q(`http://127.0.0.1:${s.backendPort}/`)},
    backend: ${q(BACKEND)},
  },
  authorization: {
    resource: ${q(s.resource)},
    issuer: ${q(s.issuer.url)},
    introspectionEndpoint: ${q(s.introspection)},
    clientId: ${q(s.issuer.rsClient.id)},
    clientSecret: { secretStore: ${q(STORE)}, key: ${q(SECRET_KEY)} },
    scopes: ['mcp:access'],
    operations: { notes_read: ['notes:read'], notes_write: ['notes:write'] },
    allowInsecureLoopback: true,
  },
};
`);
      const before = sha256(join(app, 'bin/main.wasm'));
      const r = await npx(['build', 'service.mjs', '--target', 'fastly-native', '--wasm', 'bin/main.wasm']);
      need(r.code === 1, `pulse-mcp build exited ${r.code}: ${lastLines(r.stderr || r.stdout)}`);
      for (const name of [`backend "${BACKEND}"`, 'backend "issuer"', `secret store "${STORE}"`, 'fastly.toml']) need(r.stderr.includes(name), `the refusal does not name ${name}: ${r.stderr.trim().slice(0, 400)}`);
      need(sha256(join(app, 'bin/main.wasm')) === before, 'the refused build replaced bin/main.wasm');
      s.rewritten = true;
      return `exit 1, ${r.stderr.trim().split('\n').length - 1} undeclared uses listed`;
    });

    await step('edge project: fastly.toml gains the backends and the secret store; fastly compute build and serve', async () => {
      need(s.rewritten, 'no rewritten service');
      appendFileSync(join(app, 'fastly.toml'), `
[local_server.backends.${BACKEND}]
url = "http://127.0.0.1:${s.backendPort}"

[local_server.backends.issuer]
url = "${s.issuer.url}"

[[local_server.secret_stores.${STORE}]]
key = "${SECRET_KEY}"
data = "${s.issuer.rsClient.secret}"
`);
      sh(await fastly(['build'], 180_000), 'fastly compute build');
      s.guarded = await serve(s.port);
      need(s.guarded.url === s.resource, `served on ${s.guarded.url}, the resource is ${s.resource}`);
      return s.guarded.url;
    });

    await step('edge project on Viceroy: no token, 401 with the Bearer challenge', async () => {
      need(s.guarded, 'not served');
      const { body, headers } = mcpRequest(1, 'server/discover');
      const r = await send(s.guarded.url, body, headers);
      const challenge = r.headers.get('www-authenticate');
      const expected = `Bearer resource_metadata="http://127.0.0.1:${s.port}/.well-known/oauth-protected-resource/mcp", scope="mcp:access"`;
      need(r.status === 401 && challenge === expected, `${r.status}, WWW-Authenticate ${JSON.stringify(challenge)}`);
      return challenge;
    });

    await step('edge project on Viceroy: a token with mcp:access notes:read lists notes_read alone and calls it through to the backend', async () => {
      need(s.guarded, 'not served');
      const { accessToken } = await import('../../examples/oauth/flow.mjs');
      s.token = await withTimeout(accessToken({ issuer: s.issuer.url, resource: s.resource, scope: 'mcp:access notes:read' }), 15_000, 'the authorization-code flow');
      const authorization = `Bearer ${s.token}`;
      const client = await connect(s.guarded.url, { requestInit: { headers: { authorization } } });
      try {
        const { tools } = await client.listTools();
        need(tools.map((t) => t.name).join() === 'notes_read', `tools ${tools.map((t) => t.name)}`);
      } finally {
        await client.close();
      }
      const { body, headers } = mcpRequest(2, 'tools/call', { name: 'notes_read', arguments: { id: 'welcome' } });
      let r;
      const lines = await backendLines(async () => {
        r = await send(s.guarded.url, body, { ...headers, authorization });
      });
      need(r.status === 200, `notes_read: ${r.status} ${r.text.slice(0, 200)}`);
      const result = JSON.parse(r.text).result;
      need(result?.isError !== true && isDeepStrictEqual(result?.structuredContent, { id: 'welcome', text: s.note }), `notes_read: ${r.text.slice(0, 200)}`);
      // The client's token never reaches the backend.
      need(isDeepStrictEqual(lines, ['backend: POST / notes_read without authorization']), `the backend saw ${JSON.stringify(lines)}`);
      return `200, the backend's note; the backend saw one notes_read without authorization`;
    });

    await step('edge project on Viceroy: the same token calls notes_write: 403 insufficient_scope, the backend sees nothing', async () => {
      need(s.token, 'no token');
      const { body, headers } = mcpRequest(3, 'tools/call', { name: 'notes_write', arguments: { id: 'welcome', text: 'overwritten' } });
      let r;
      const lines = await backendLines(async () => {
        r = await send(s.guarded.url, body, { ...headers, authorization: `Bearer ${s.token}` });
      });
      const challenge = r.headers.get('www-authenticate') ?? '';
      // The challenge names the scopes the operation needs: the baseline and its own.
      need(r.status === 403 && /^Bearer (.+, )?error="insufficient_scope"(, |$)/.test(challenge) && challenge.includes('scope="mcp:access notes:write"'), `${r.status}, WWW-Authenticate ${JSON.stringify(challenge)}`);
      need(lines.length === 0, `the backend saw ${JSON.stringify(lines)}`);
      return challenge;
    });
  } finally {
    for (const p of started.reverse()) await p.stop(2000);
    await s.issuer?.close();
  }
}
