// Property test of the introspection claim rules against a small reference model: an issuer scripted
// per case answers for an active token whose one claim (iss, aud, scope, token_type, sub or active)
// is a near miss of the value the rule wants (a prefix, a suffix, a character added, removed or
// replaced, a case flip, another JSON type) or the value itself. The exact value is granted (200);
// every near miss is refused with the exact status, challenge and body of its outcome. Through the
// Fetch host and the real core, over TCP to the issuer.
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusBehindIssuer } from '../support/authorization';
import { envelope, modernHeaders } from '../support/fixtures';
import { fetchHandler, listen, type FetchHandler, type RunningServer } from '../support/hosts';

const SEED = Number(process.env.PULSE_PROPERTY_SEED ?? 20261205) || undefined;
const RESOURCE = 'https://mcp.pulse.test/mcp';
const METADATA = 'https://mcp.pulse.test/.well-known/oauth-protected-resource/mcp';
const BASELINE = 'mcp:access';
const SCOPE = 'mcp:access notes:read';
const INVALID = 'The access token is invalid or expired';
const INSUFFICIENT = 'The access token lacks a required scope';
const UNAVAILABLE = 'The access token could not be verified; try again later';

let issuer: RunningServer;
let issuerUrl: string;
/** What the scripted issuer answers next. */
let introspection = '';
let handler: FetchHandler;

beforeAll(async () => {
  issuer = await listen((req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(introspection));
  });
  issuerUrl = `http://127.0.0.1:${issuer.port}`;
  handler = fetchHandler(statusBehindIssuer({ resource: RESOURCE, issuer: issuerUrl, endpoint: 'http://127.0.0.1:9/rpc', scopes: [BASELINE], extra: { allowInsecureLoopback: true } }));
});
afterAll(async () => issuer?.close());

type Claim = 'iss' | 'aud' | 'scope' | 'token_type' | 'sub' | 'active';
const ABSENT = Symbol('absent');
type ClaimValue = unknown | typeof ABSENT;

/** The claims of a token the rules grant: `aud` an array, no `token_type`. */
function validClaims(): Record<string, unknown> {
  return { active: true, iss: issuerUrl, aud: ['other', RESOURCE], exp: Math.floor(Date.now() / 1000) + 600, sub: 'u1', scope: SCOPE };
}

/** The wanted value of each claim the property varies. */
const wanted = (claim: Claim): string => ({ iss: issuerUrl, aud: RESOURCE, scope: SCOPE, token_type: 'Bearer', sub: 'u1', active: 'true' })[claim];

type Outcome = 'granted' | 'invalid' | 'insufficient' | 'unavailable';

/** The reference model of the rules, one claim varied. */
function model(claim: Claim, v: ClaimValue): Outcome {
  switch (claim) {
    case 'active':
      return v === true ? 'granted' : v === false ? 'invalid' : 'unavailable';
    case 'iss':
      return v === issuerUrl ? 'granted' : 'invalid';
    case 'aud':
      return v === RESOURCE || (Array.isArray(v) && v.includes(RESOURCE)) ? 'granted' : 'invalid';
    case 'token_type':
      return v === ABSENT || (typeof v === 'string' && v.toLowerCase() === 'bearer') ? 'granted' : 'invalid';
    case 'sub':
      return typeof v === 'string' && v !== '' ? 'granted' : 'invalid';
    case 'scope':
      if (typeof v !== 'string' || v.startsWith(' ') || v.endsWith(' ') || v.includes('  ')) return 'invalid';
      return v.split(' ').includes(BASELINE) ? 'granted' : 'insufficient';
  }
}

const EXPECTED: Record<Outcome, { status: number; challenge: string | null; body: unknown }> = {
  granted: { status: 200, challenge: null, body: null },
  invalid: {
    status: 401,
    challenge: `Bearer error="invalid_token", resource_metadata="${METADATA}", scope="${BASELINE}", error_description="${INVALID}"`,
    body: { error: 'invalid_token', error_description: INVALID },
  },
  insufficient: {
    status: 403,
    challenge: `Bearer error="insufficient_scope", scope="${BASELINE}", resource_metadata="${METADATA}", error_description="${INSUFFICIENT}"`,
    body: { error: 'insufficient_scope', error_description: INSUFFICIENT },
  },
  unavailable: { status: 503, challenge: null, body: { error: 'temporarily_unavailable', error_description: UNAVAILABLE } },
};

const flipCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const oneChar = fc.constantFrom('a', 'Z', '0', ' ', '/', ':', '.', '-', 'é', '\t');

/** Near misses of `s` (and, now and then, `s` itself). */
const nearMiss = (s: string): fc.Arbitrary<ClaimValue> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(s) },
    { weight: 2, arbitrary: fc.nat().map((k) => s.slice(0, k % s.length)) },
    { weight: 2, arbitrary: fc.nat().map((k) => s.slice(1 + (k % s.length))) },
    { weight: 2, arbitrary: oneChar.map((c) => s + c) },
    { weight: 2, arbitrary: oneChar.map((c) => c + s) },
    { weight: 2, arbitrary: fc.nat().map((i) => s.slice(0, i % s.length) + s.slice((i % s.length) + 1)) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(), oneChar).map(([i, c]) => s.slice(0, i % s.length) + c + s.slice((i % s.length) + 1)) },
    { weight: 3, arbitrary: fc.nat().map((i) => s.slice(0, i % s.length) + flipCase(s[i % s.length]) + s.slice((i % s.length) + 1)) },
    { weight: 1, arbitrary: fc.constant(s.toUpperCase()) },
    { weight: 2, arbitrary: fc.constantFrom<ClaimValue>(null, 0, 1, true, false, '', {}, [], [s], { v: s }, [[s]], Number(s) || 7, ABSENT) },
  );

const caseArb = fc.constantFrom<Claim>('iss', 'aud', 'scope', 'token_type', 'sub', 'active').chain((claim) =>
  fc.record({
    claim: fc.constant(claim),
    value: claim === 'active' ? fc.constantFrom<ClaimValue>(true, false, 'true', 'false', 1, 0, null, [true], {}, ABSENT) : nearMiss(wanted(claim)),
  }),
);

async function ask(claim: Claim, v: ClaimValue): Promise<{ status: number; challenge: string | null; body: unknown }> {
  const claims = validClaims();
  if (v === ABSENT) delete claims[claim];
  else claims[claim] = v;
  introspection = JSON.stringify(claims);
  const r = await handler.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: [...modernHeaders('tools/list'), ['authorization', 'Bearer tok-1']],
      body: envelope('tools/list', 1),
    }),
  );
  const text = await r.text();
  const body = JSON.parse(text);
  return { status: r.status, challenge: r.headers.get('www-authenticate'), body: r.status === 200 ? null : body };
}

describe('introspection claims: the exact value is granted, every near miss refused exactly', () => {
  it('the exact values, each claim', async () => {
    for (const claim of ['iss', 'aud', 'scope', 'token_type', 'sub'] as const) expect(await ask(claim, wanted(claim)), claim).toEqual(EXPECTED.granted);
  });

  it('200 near misses against the model', async () => {
    const seen = new Set<Outcome>();
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ claim, value }) => {
        const outcome = model(claim, value);
        seen.add(outcome);
        const shown = value === ABSENT ? '(absent)' : JSON.stringify(value);
        expect(await ask(claim, value), `${claim}: ${shown}`).toEqual(EXPECTED[outcome]);
      }),
      { numRuns: 200, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
    expect([...seen].sort()).toEqual(['granted', 'insufficient', 'invalid', 'unavailable']);
  });
});
