// The OAuth block of `npm run qualify`: the example behind a real authorization server
// (`npm run example:oauth`: oidc-provider, the notes backend, the host with `authorization`), and
// the pinned clients against it.
//   - The official SDK client runs the whole browserless flow: the 401 challenge, protected-resource
//     metadata, authorization-server metadata, code + PKCE S256 with the `resource` parameter, an
//     issuer mismatch refused before the code is redeemed (the same code then redeems), scoped
//     listing and calls, and a step-up to a wider scope after a 403.
//   - Claude Code with a pre-issued bearer through the README's ${VAR} header: scoped listing, one
//     governed call, a writer call it refuses itself (the writer is not listed for the token),
//     both driven by a scripted Messages API stand-in (no model), then revocation: the next
//     connection is refused.
//   - Codex on the 2025-06-18 profile with a bearer: scoped listing and one call.
// The backend's own log (one line per request it received) counts the effects.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, IssuerMismatchError } from '@modelcontextprotocol/client';
import { start, freePort, waitForPort, withTimeout } from './lib.mjs';
import * as claude from './claude.mjs';
import * as codex from './codex.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const flow = await import(path.join(ROOT, 'examples', 'oauth', 'flow.mjs'));
const { MCP_CLIENT_ID } = await import(path.join(ROOT, 'examples', 'oauth', 'issuer.mjs'));
const REDIRECT = 'http://127.0.0.1:1/callback';
const CLIENT_INFO = { name: 'pulse-qualify-oauth', version: '0.0.0' };
const need = (cond, msg) => { if (!cond) throw new Error(msg); };

/** Starts `npm run example:oauth` on a free port; resolves once its listening line is out. */
async function startExample(legacy) {
  const port = await freePort();
  const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port) };
  delete env.LEGACY_PROTOCOL;
  if (legacy) env.LEGACY_PROTOCOL = '2025-06-18';
  const proc = start(process.execPath, [path.join(ROOT, 'examples', 'oauth', 'run.mjs')], { env, cwd: ROOT });
  await waitForPort(port, 60_000, proc.exited);
  const deadline = Date.now() + 30_000;
  while (!/ listening on http:\/\/\S+\/mcp\n/.test(proc.out.stdout)) {
    need(Date.now() < deadline, 'example:oauth printed no listening line');
    await new Promise((r) => setTimeout(r, 50));
  }
  const issuer = /^issuer (http:\/\/127\.0\.0\.1:\d+) /m.exec(proc.out.stdout)[1];
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url, issuer, proc,
    /** Requests the backend received so far (its log lines). */
    effects: () => proc.out.stdout.split('\n').filter((l) => l.startsWith('backend: POST')).length,
    mint: (scope) => flow.accessToken({ issuer, resource: url, scope }),
    revoke: (token) => flow.revoke({ issuer, token }),
    stop: () => proc.stop(),
  };
}

/** An in-memory OAuthClientProvider for the pre-registered public client. */
function provider() {
  const p = {
    saved: undefined, verifier: undefined, authorizationUrl: undefined,
    get redirectUrl() { return REDIRECT; },
    get clientMetadata() { return { client_name: 'pulse qualify', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }; },
    clientInformation: () => ({ client_id: MCP_CLIENT_ID }),
    tokens: () => p.saved,
    saveTokens: (t) => { p.saved = t; },
    redirectToAuthorization: (url) => { p.authorizationUrl = url; },
    saveCodeVerifier: (v) => { p.verifier = v; },
    codeVerifier: () => p.verifier,
  };
  return p;
}

/** Connects; when the SDK asks for authorization, signs in and finishes it, then connects again. */
async function connectWithOAuth(server, auth, mode) {
  const options = mode === 'legacy' ? { supportedProtocolVersions: ['2025-06-18'] } : { versionNegotiation: { mode: { pin: '2026-07-28' } } };
  for (let attempt = 0; attempt < 2; attempt++) {
    const client = new Client(CLIENT_INFO, options);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: auth });
    try {
      await withTimeout(client.connect(transport), 20_000, 'connect');
      return { client, transport };
    } catch (e) {
      await client.close().catch(() => {});
      if (!(e instanceof UnauthorizedError) || attempt > 0) throw e;
      const callback = await flow.signIn(auth.authorizationUrl, server.issuer, 'alice');
      await transport.finishAuth(callback.searchParams);
    }
  }
  throw new Error('unreachable');
}

export async function oauthSteps(S, { home, versions, qualifyDir }) {
  const servers = [];
  try {
    let modern, dual;
    await S.step('start servers', { client: 'harness', expect: 'example:oauth (issuer, backend, host) modern-only and dual listen on 127.0.0.1', always: true }, async () => {
      [modern, dual] = await Promise.all([startExample(false), startExample(true)]);
      servers.push(modern, dual);
      return null;
    });
    if (!modern || !dual) return;
    const sdkBase = { client: `@modelcontextprotocol/client ${versions.sdk}` };

    const auth = provider();
    let conn;
    await S.step('sdk.oauth flow', { ...sdkBase, expect: '401 → PRM → AS metadata → code + PKCE S256 + resource → scoped tools/list and one call' }, async () => {
      const before = modern.effects();
      conn = await connectWithOAuth(modern, auth);
      const u = auth.authorizationUrl;
      need(u && u.origin === modern.issuer, `authorization at ${u?.origin}, expected the PRM's issuer`);
      need(u.searchParams.get('resource') === modern.url, `resource parameter ${u.searchParams.get('resource')}`);
      need(u.searchParams.get('code_challenge_method') === 'S256', 'no PKCE S256');
      need(u.searchParams.get('scope') === 'mcp:access', `scope ${u.searchParams.get('scope')} (expected the challenge's baseline)`);
      const { tools } = await conn.client.listTools();
      const names = tools.map((t) => t.name);
      need(JSON.stringify(names) === '["notes_status"]', `listed ${names.join(',')} (expected the baseline operation only)`);
      const r = await conn.client.callTool({ name: 'notes_status', arguments: {} });
      need(r.isError === false, 'notes_status failed');
      need(modern.effects() - before === 1, `backend effects ${modern.effects() - before}`);
      return { listed: names, scope: auth.saved?.scope ?? null };
    });

    await S.step('sdk.oauth step-up', { ...sdkBase, expect: 'a call needing notes:read gets 403 insufficient_scope; the client re-authorizes with the union and the call succeeds' }, async () => {
      need(conn, 'no connection');
      const before = modern.effects();
      const first = auth.authorizationUrl;
      let r;
      try {
        r = await conn.client.callTool({ name: 'notes_read', arguments: { id: 'a' } });
      } catch (e) {
        need(e instanceof UnauthorizedError, `first attempt: ${e.message}`);
        need(auth.authorizationUrl !== first, 'no new authorization request');
        const scope = auth.authorizationUrl.searchParams.get('scope');
        need(scope === 'mcp:access notes:read', `step-up scope ${scope}`);
        const callback = await flow.signIn(auth.authorizationUrl, modern.issuer, 'alice');
        await conn.transport.finishAuth(callback.searchParams);
        r = await conn.client.callTool({ name: 'notes_read', arguments: { id: 'a' } });
      }
      need(r.isError === false, 'notes_read failed');
      need(modern.effects() - before === 1, `backend effects ${modern.effects() - before} (the refused attempt must have none)`);
      return { scope: auth.saved?.scope ?? null };
    });
    await conn?.client.close().catch(() => {});

    await S.step('sdk.oauth issuer mismatch', { ...sdkBase, expect: 'a callback whose iss is not the issuer is refused before the code is redeemed; the same code then redeems' }, async () => {
      const a = provider();
      const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      const transport = new StreamableHTTPClientTransport(new URL(modern.url), { authProvider: a });
      const refused = await client.connect(transport).then(() => false, (e) => e instanceof UnauthorizedError);
      need(refused, 'no authorization was asked for');
      const callback = await flow.signIn(a.authorizationUrl, modern.issuer, 'alice');
      const forged = new URLSearchParams(callback.searchParams);
      forged.set('iss', 'http://127.0.0.1:1');
      const mismatch = await transport.finishAuth(forged).then(() => null, (e) => e);
      need(mismatch instanceof IssuerMismatchError, `forged iss: ${mismatch ? mismatch.message : 'accepted'}`);
      need(a.saved === undefined, 'tokens were saved');
      await transport.finishAuth(callback.searchParams);
      need(typeof a.saved?.access_token === 'string', 'the genuine callback did not redeem');
      await client.close().catch(() => {});
      return { refused: mismatch.name };
    });

    const claudeBase = { client: `@anthropic-ai/claude-code ${versions.claude}` };
    const bin = claude.claudeBin(qualifyDir);
    const claudeHome = path.join(home, 'claude-oauth');
    fs.mkdirSync(claudeHome, { recursive: true });
    let token;
    let added;
    await S.step('claude.bearer scoped listing', { ...claudeBase, expect: 'README header with a pre-issued bearer (mcp:access notes:read): connected, only the permitted tools' }, async () => {
      token = await modern.mint('mcp:access notes:read');
      added = await claude.addAndList({ bin, home: claudeHome, token, name: 'pulse', url: modern.url });
      need(added.storedLiteral, 'the stored header is not the literal ${VAR}');
      need(added.connected, `claude mcp list: ${added.status}`);
      const r = await claude.initToolNames({ bin, project: added.project, env: added.env, name: 'pulse' });
      need(r.status === 'connected', `status ${r.status}`);
      need(JSON.stringify([...r.tools].sort()) === '["notes_read","notes_status"]', `tools ${r.tools.join(',')}`);
      return { tools: r.tools };
    });
    await S.step('claude.bearer governed call', { ...claudeBase, expect: 'a scripted turn (no model) makes Claude Code call notes_read through its MCP client: a result, one backend effect' }, async () => {
      need(added, 'not added');
      const before = modern.effects();
      const r = await claude.callToolScripted({ bin, project: added.project, env: added.env, name: 'pulse', tool: 'notes_read', args: { id: 'n1' } });
      need(!r.isError, `tool error: ${r.text.slice(0, 200)}`);
      need(JSON.parse(r.text).id === 'n1', `result ${r.text.slice(0, 200)}`);
      need(modern.effects() - before === 1, `backend effects ${modern.effects() - before}`);
      return { isError: r.isError };
    });
    // The listing already leaves the writer out, so Claude Code refuses the call itself; the 403 a
    // client that calls anyway gets is shown by the SDK's step-up above.
    await S.step('claude.bearer writer refused', { ...claudeBase, expect: 'notes_write with a reader token: not listed, so Claude Code refuses the call as an unknown tool; no backend effect' }, async () => {
      need(added, 'not added');
      const before = modern.effects();
      const r = await claude.callToolScripted({ bin, project: added.project, env: added.env, name: 'pulse', tool: 'notes_write', args: { id: 'n1', text: 'x' } });
      need(r.isError, `not an error: ${r.text.slice(0, 200)}`);
      need(/No such tool available: mcp__pulse__notes_write/.test(r.text), `error text: ${r.text.slice(0, 200)}`);
      need(modern.effects() === before, 'the backend saw a request');
      return { isError: r.isError, text: r.text.slice(0, 160) };
    });
    await S.step('claude.bearer revoked', { ...claudeBase, expect: 'after revocation at the issuer the next connection fails (401)' }, async () => {
      need(added, 'not added');
      const before = modern.effects();
      await modern.revoke(token);
      const list = await claude.initToolNames({ bin, project: added.project, env: added.env, name: 'pulse' });
      need(list.status !== 'connected' && list.tools.length === 0, `still ${list.status} with ${list.tools.length} tools`);
      need(modern.effects() === before, 'the backend saw a request');
      return { status: list.status };
    });

    const codexBase = { client: `@openai/codex ${versions.codex}` };
    await S.step('codex.bearer legacy listing and call', { ...codexBase, expect: 'on 2025-06-18 with a bearer (mcp:access): only notes_status listed; one call; one backend effect' }, async () => {
      const t = await dual.mint('mcp:access');
      const codexHome = path.join(home, 'codex-oauth');
      const env = { PATH: process.env.PATH, HOME: path.join(home, 'codex-oauth-user'), LANG: 'C.UTF-8', NO_COLOR: '1', RUST_LOG: 'error', [claude.TOKEN_VAR]: t };
      fs.mkdirSync(env.HOME, { recursive: true });
      codex.writeConfig(codexHome, 'pulse', dual.url, claude.TOKEN_VAR);
      const app = new codex.AppServer({ bin: codex.codexBin(qualifyDir), codexHome, env, cwd: env.HOME });
      try {
        await codex.initialize(app);
        const status = await codex.serverStatus(app, 'pulse');
        need(status && !status.toolsError, `toolsError: ${String(status?.toolsError).slice(0, 200)}`);
        const names = Object.keys(status.tools ?? {});
        need(JSON.stringify(names) === '["notes_status"]', `listed ${names.join(',')}`);
        const before = dual.effects();
        const thread = await codex.startThread(app, env.HOME);
        const r = await codex.callTool(app, thread, 'pulse', 'notes_status', {});
        need(r?.isError !== true, 'isError');
        need(dual.effects() - before === 1, `backend effects ${dual.effects() - before}`);
        return { listed: names };
      } finally {
        await app.stop();
      }
    });
  } finally {
    for (const s of servers) await s.stop();
  }
}
