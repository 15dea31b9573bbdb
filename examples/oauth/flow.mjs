// The browserless authorization-code flow against ./issuer.mjs: PKCE S256, the RFC 8707 `resource`
// in both the authorization and the token request, the provider's development sign-in and consent
// forms filled in over HTTP, and the RFC 9207 `iss` of the callback checked before the code is
// redeemed. Also RFC 7009 revocation. Used by the example's token command and by the tests.
import { createHash, randomBytes } from 'node:crypto';
import { MCP_CLIENT_ID } from './issuer.mjs';

/** A cookie jar for one flow: name → value, from every Set-Cookie seen. */
function jar() {
  const cookies = new Map();
  return {
    take(res) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** Follows redirects by hand (carrying cookies) until one leaves the issuer; returns that URL. */
async function follow(start, issuer, cookies, init) {
  let res = await fetch(start, { ...init, redirect: 'manual', headers: { ...init?.headers, cookie: cookies.header() } });
  for (let hops = 0; hops < 20; hops++) {
    cookies.take(res);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || location === null) return { res, url: undefined };
    const next = new URL(location, start);
    if (next.origin !== new URL(issuer).origin) return { res, url: next };
    if (next.pathname.startsWith('/interaction/')) {
      const page = await fetch(next, { headers: { cookie: cookies.header() } });
      cookies.take(page);
      const html = await page.text();
      // The page is the sign-in form or the consent form; each posts back to its own action.
      const action = new URL(/<form[^>]* action="([^"]+)"/.exec(html)?.[1] ?? next.pathname, issuer);
      const form = html.includes('name="login"') ? { prompt: 'login', login: init.login, password: 'any' } : { prompt: 'consent' };
      res = await fetch(action, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies.header() }, body: new URLSearchParams(form) });
      start = action.href;
      continue;
    }
    res = await fetch(next, { redirect: 'manual', headers: { cookie: cookies.header() } });
    start = next.href;
  }
  throw new Error('flow: too many redirects');
}

/** The authorization URL for the MCP client, with its PKCE verifier and state. */
export function authorizationRequest({ issuer, resource, scope, redirectUri }) {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL('/auth', issuer);
  url.search = new URLSearchParams({
    client_id: MCP_CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope,
    resource,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state };
}

/** Signs in as `login` through the development interactions; the callback URL the issuer sent. */
export async function signIn(authorizationUrl, issuer, login) {
  const { url } = await follow(authorizationUrl, issuer, jar(), { login });
  if (url === undefined) throw new Error('flow: the issuer did not redirect to the client');
  return url;
}

/**
 * Runs the whole flow and returns the access token. The callback's `iss` must be the issuer we
 * asked (RFC 9207), checked before the code is redeemed.
 */
export async function accessToken({ issuer, resource, scope, redirectUri = 'http://127.0.0.1:1/callback', login = 'alice' }) {
  const req = authorizationRequest({ issuer, resource, scope, redirectUri });
  const callback = await signIn(req.url, issuer, login);
  if (callback.searchParams.get('state') !== req.state) throw new Error('flow: state mismatch');
  if (callback.searchParams.get('iss') !== issuer) throw new Error('flow: issuer mismatch, the code was not redeemed');
  const code = callback.searchParams.get('code');
  if (code === null) throw new Error(`flow: no code (${callback.searchParams.get('error')})`);
  const res = await fetch(new URL('/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: MCP_CLIENT_ID, code_verifier: req.verifier, resource }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`flow: token request refused (${json.error})`);
  return json.access_token;
}

/** RFC 7009 revocation by the client the token was issued to. */
export async function revoke({ issuer, token }) {
  const res = await fetch(new URL('/token/revocation', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'access_token', client_id: MCP_CLIENT_ID }),
  });
  if (!res.ok) throw new Error(`revoke: refused with ${res.status}`);
}
