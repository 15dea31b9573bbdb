/**
 * The differential corpus: every row of the shared outcome table (spec/outcomes.json) that can
 * be sent over TCP, plus the example router's tools with good and bad input, legacy/modern header
 * mixes, odd ids, oversized/deep/chunked bodies and the backend-call tools (fast, slow past the
 * deadline, oversized reply, refused, …). Each case names the handler profile it runs against.
 */
import { OUTCOMES } from '../../test/support/outcomes';
import type { OutcomeRequest } from '../../spec/outcomes.rows';
import { ACCEPT, CT, META, PROTOCOL, b64name, envelope, modernHeaders, nest, type Id } from '../../test/support/fixtures';

export interface Case {
  name: string;
  profile: string;
  request: OutcomeRequest;
  /** Upper bound for the exchange. */
  timeoutMs?: number;
}

const LEGACY = '2025-06-18';
const post = (headers: [string, string][], body: string | Uint8Array): OutcomeRequest => ({ method: 'POST', path: '/mcp', headers, body });
const call = (name: string, args: unknown, id: Id = 1, headerName: string | null = name) =>
  post(modernHeaders('tools/call', headerName ?? undefined), envelope('tools/call', id, args === undefined ? { name, _meta: META } : { name, arguments: args, _meta: META }));
const list = (id: Id = 1) => post(modernHeaders('tools/list'), envelope('tools/list', id));
const discover = (id: Id = 1) => post(modernHeaders('server/discover'), envelope('server/discover', id));
const legacyHeaders = (version: string | null = LEGACY): [string, string][] => (version === null ? [ACCEPT, CT] : [ACCEPT, CT, ['mcp-protocol-version', version]]);
const legacyBody = (method: string, id: Id | undefined, params?: unknown) => {
  const o: Record<string, unknown> = { jsonrpc: '2.0' };
  if (id !== undefined) o.id = id;
  o.method = method;
  if (params !== undefined) o.params = params;
  return JSON.stringify(o);
};
const init = (version = LEGACY, id: Id = 0) =>
  legacyBody('initialize', id, { protocolVersion: version, capabilities: {}, clientInfo: { name: 'legacy-client', version: '1.0.0' } });

function exampleCases(): Case[] {
  const p = 'example';
  const c = (name: string, request: OutcomeRequest): Case => ({ name: `example: ${name}`, profile: p, request });
  return [
    c('discover', discover(1)),
    c('tools/list', list(2)),
    c('tools/list with a cursor is refused', post(modernHeaders('tools/list'), envelope('tools/list', 3, { cursor: 'x', _meta: META }))),
    c('starter_plan good', call('starter_plan', { query: 'deploy on fastly' })),
    c('starter_plan with limit', call('starter_plan', { query: 'read-only api', limit: 2 })),
    c('starter_plan empty query', call('starter_plan', { query: '' })),
    c('starter_plan query not a string', call('starter_plan', { query: 5 })),
    c('starter_plan limit above max', call('starter_plan', { query: 'x', limit: 9 })),
    c('starter_plan limit zero', call('starter_plan', { query: 'x', limit: 0 })),
    c('starter_plan unknown field', call('starter_plan', { query: 'x', extra: 1 })),
    c('starter_plan arguments missing', call('starter_plan', undefined)),
    c('starter_plan arguments not an object', call('starter_plan', [1])),
    c('search_docs good', call('search_docs', { query: 'budget deadline', limit: 3 })),
    c('search_docs unicode query', call('search_docs', { query: 'édge ✓ 😀' })),
    c('search_docs no hits', call('search_docs', { query: 'zzqqxxnonexistent' })),
    c('search_docs missing query', call('search_docs', {})),
    c('search_docs query too long', call('search_docs', { query: 'q'.repeat(513) })),
    c('search_docs limit fractional', call('search_docs', { query: 'x', limit: 1.5 })),
    c('read_section good', call('read_section', { id: 'plan-deploy-fastly' })),
    c('read_section unknown id', call('read_section', { id: 'no-such-section' })),
    c('read_section id too long', call('read_section', { id: 'x'.repeat(129) })),
    c('read_section id null', call('read_section', { id: null })),
    c('list_examples good', call('list_examples', {})),
    c('list_examples without arguments', call('list_examples', undefined)),
    c('list_examples with an argument', call('list_examples', { x: 1 })),
    c('explain_diagnostic good', call('explain_diagnostic', { id: 'http-413' })),
    c('explain_diagnostic jsonrpc code', call('explain_diagnostic', { id: 'jsonrpc--32602' })),
    c('explain_diagnostic not in enum', call('explain_diagnostic', { id: 'http-999' })),
    c('unknown tool', call('no_such_tool', {})),
    c('tools/call without Mcp-Name', call('search_docs', { query: 'x' }, 1, null)),
    c('Mcp-Name mismatch', call('search_docs', { query: 'x' }, 1, 'read_section')),
    c('Mcp-Name base64 sentinel', post(modernHeaders('tools/call', b64name('search_docs')), envelope('tools/call', 1, { name: 'search_docs', arguments: { query: 'x' }, _meta: META }))),
    c('name not a string', post(modernHeaders('tools/call', 'x'), envelope('tools/call', 1, { name: 7, _meta: META }))),
    c('tools/call notification (no id)', post(modernHeaders('tools/call', 'search_docs'), envelope('tools/call', undefined, { name: 'search_docs', arguments: { query: 'x' }, _meta: META }))),
    c('string id call', call('list_examples', {}, 'call-☃')),
    c('call body in 1-byte chunks', { method: 'POST', path: '/mcp', headers: modernHeaders('tools/call', 'read_section'), chunks: [...Buffer.from(envelope('tools/call', 9, { name: 'read_section', arguments: { id: 'plan-deploy-fastly' }, _meta: META }))].map((b) => Uint8Array.of(b)) }),
    c('call body in 3 chunks', { method: 'POST', path: '/mcp', headers: modernHeaders('tools/call', 'search_docs'), chunks: envelope('tools/call', 10, { name: 'search_docs', arguments: { query: 'fastly' }, _meta: META }).match(/[\s\S]{1,40}/g)! }),
  ];
}

function oddIdCases(): Case[] {
  const raw = (name: string, idText: string): Case => ({
    name: `odd id: ${name}`,
    profile: 'default',
    request: post(modernHeaders('server/discover'), envelope('server/discover', 1).replace('"id":1', `"id":${idText}`)),
  });
  return [
    raw('fractional', '1.5'),
    raw('exponent form', '1e3'),
    raw('negative zero', '-0'),
    raw('2^53', '9007199254740992'),
    raw('null', 'null'),
    raw('true', 'true'),
    raw('object', '{}'),
    raw('array', '[1]'),
    raw('long string', JSON.stringify('i'.repeat(300))),
    raw('string with NUL escape', '"\\u0000"'),
    raw('string of escaped slashes', '"\\/\\/"'),
    raw('leading-zero-looking string', '"007"'),
  ];
}

function headerMixCases(): Case[] {
  const c = (profile: string, name: string, request: OutcomeRequest): Case => ({ name: `mix (${profile}): ${name}`, profile, request });
  const cases: Case[] = [];
  for (const profile of ['legacy', 'default']) {
    cases.push(
      c(profile, 'legacy initialize', post(legacyHeaders(null), init())),
      c(profile, 'legacy initialize with version header', post(legacyHeaders(), init())),
      c(profile, 'initialize asking a newer version', post(legacyHeaders(null), init('2099-01-01'))),
      c(profile, 'legacy tools/list', post(legacyHeaders(), legacyBody('tools/list', 1, {}))),
      c(profile, 'legacy ping', post(legacyHeaders(), legacyBody('ping', 2))),
      c(profile, 'legacy notification initialized', post(legacyHeaders(), legacyBody('notifications/initialized', undefined))),
      c(profile, 'legacy body with modern version header', post([ACCEPT, CT, ['mcp-protocol-version', PROTOCOL]], legacyBody('tools/list', 3, {}))),
      c(profile, 'modern body with legacy version header', post([ACCEPT, CT, ['mcp-protocol-version', LEGACY], ['mcp-method', 'server/discover']], envelope('server/discover', 4))),
      c(profile, 'modern body without version header', post([ACCEPT, CT, ['mcp-method', 'server/discover']], envelope('server/discover', 5))),
      c(profile, 'modern headers, legacy initialize body', post(modernHeaders('initialize'), init())),
      c(profile, 'unknown version header', post([ACCEPT, CT, ['mcp-protocol-version', '2024-01-01']], legacyBody('tools/list', 6, {}))),
      c(profile, 'version header repeated', post([ACCEPT, CT, ['mcp-protocol-version', PROTOCOL], ['mcp-protocol-version', PROTOCOL], ['mcp-method', 'server/discover']], envelope('server/discover', 7))),
      c(profile, 'legacy tools/call unknown tool', post(legacyHeaders(), legacyBody('tools/call', 8, { name: 'x', arguments: {} }))),
    );
  }
  return cases;
}

function bodyCases(): Case[] {
  const c = (profile: string, name: string, request: OutcomeRequest, timeoutMs?: number): Case => ({ name: `body (${profile}): ${name}`, profile, request, ...(timeoutMs ? { timeoutMs } : {}) });
  const deep = (n: number) => envelope('server/discover', 1).replace('"params":{', `"params":{"org.example/deep":${nest(n)},`);
  return [
    c('default', 'deep nesting over the limit', post(modernHeaders('server/discover'), deep(40))),
    c('default', 'very deep nesting (10k)', post(modernHeaders('server/discover'), deep(10000))),
    c('shallow', 'nesting over the shallow limit', post(modernHeaders('server/discover'), deep(6))),
    c('default', 'oversized 200 KiB', post(modernHeaders('server/discover'), envelope('server/discover', 1) + ' '.repeat(200 * 1024))),
    c('default', 'oversized chunked 100 KiB', { method: 'POST', path: '/mcp', headers: modernHeaders('server/discover'), chunks: [envelope('server/discover', 1), ' '.repeat(50 * 1024), ' '.repeat(50 * 1024)] }),
    c('small', 'small profile response budget', post(modernHeaders('server/discover'), envelope('server/discover', 'r'.repeat(600)))),
    c('default', 'chunked discover in 2 chunks', { method: 'POST', path: '/mcp', headers: modernHeaders('server/discover'), chunks: [envelope('server/discover', 11).slice(0, 30), envelope('server/discover', 11).slice(30)] }),
    c('default', 'body of only whitespace', post(modernHeaders('server/discover'), '   \n')),
    c('default', 'invalid UTF-8 in a string', post(modernHeaders('server/discover'), Buffer.concat([Buffer.from(envelope('server/discover', 1).slice(0, -2)), Buffer.from([0x2c, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x7d])]))),
    c('slow', 'stall before any body byte', { method: 'POST', path: '/mcp', headers: modernHeaders('server/discover'), chunks: [' '], stall: true }, 3000),
  ];
}

function surfaceCases(): Case[] {
  const c = (name: string, request: OutcomeRequest): Case => ({ name: `surface: ${name}`, profile: 'surface', request });
  const rpc = (method: string, params: Record<string, unknown>, name?: string, extra: [string, string][] = []) =>
    post([...modernHeaders(method, name), ...extra], envelope(method, 1, { ...params, _meta: META }));
  const withCaps = (caps: unknown) => ({ ...META, 'io.modelcontextprotocol/clientCapabilities': caps });
  const askWith = (caps: unknown, extra: Record<string, unknown> = {}) =>
    post(modernHeaders('tools/call', 'ask'), envelope('tools/call', 1, { name: 'ask', ...extra, _meta: withCaps(caps) }));
  return [
    c('discover', discover(1)),
    c('tools/list', list(2)),
    c('content tool', call('blocks', undefined)),
    c('multi-round: first round asks', askWith({ elicitation: {} })),
    c('multi-round: missing capability', askWith({})),
    c('multi-round: tampered state', askWith({ elicitation: {} }, { inputResponses: { name: { action: 'accept', content: {} } }, requestState: 'eyJ2IjoxfQ.AAAA' })),
    c('multi-round: inputResponses not an object', askWith({ elicitation: {} }, { inputResponses: null })),
    c('header param agrees', rpc('tools/call', { name: 'regional', arguments: { region: 'eu' } }, 'regional', [['mcp-param-region', 'eu']])),
    c('header param missing', rpc('tools/call', { name: 'regional', arguments: { region: 'eu' } }, 'regional')),
    c('header param disagrees', rpc('tools/call', { name: 'regional', arguments: { region: 'eu' } }, 'regional', [['mcp-param-region', 'us']])),
    c('header param bad base64', rpc('tools/call', { name: 'regional', arguments: { region: 'eu' } }, 'regional', [['mcp-param-region', '=?base64?ZXU?=']])),
    ...(
      [
        ['presence rules hold', { email: 'e', address: { city: 'x', zip: 1 } }],
        ['strict object refuses a member', { email: 'e', other: 1 }],
        ['no alternative complete', { via: 'email' }],
        ['conditional requires the chosen field', { via: 'phone', email: 'e' }],
        ['conditional else branch', { phone: 'p' }],
      ] as const
    ).map(([what, args]) => c(`2020-12 rules: ${what}`, rpc('tools/call', { name: 'contact', arguments: args }, 'contact'))),
    c('resources/list', rpc('resources/list', {})),
    c('resources/templates/list', rpc('resources/templates/list', {})),
    c('resources/read text', rpc('resources/read', { uri: 'test://text' }, 'test://text')),
    c('resources/read blob', rpc('resources/read', { uri: 'test://blob' }, 'test://blob')),
    c('resources/read template', rpc('resources/read', { uri: 'test://item/42' }, 'test://item/42')),
    c('resources/read unknown', rpc('resources/read', { uri: 'test://none' }, 'test://none')),
    c('prompts/list', rpc('prompts/list', {})),
    c('prompts/get', rpc('prompts/get', { name: 'greet', arguments: { who: 'Ada' } }, 'greet')),
    c('prompts/get missing argument', rpc('prompts/get', { name: 'greet' }, 'greet')),
    c('completion of a prompt argument', rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'w' } })),
    c('completion of a template variable', rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'test://item/{id}' }, argument: { name: 'id', value: 'al' } })),
    c('server card', { method: 'GET', path: '/.well-known/mcp/server-card.json', headers: [] }),
  ];
}

function backendCases(): Case[] {
  const c = (name: string, request: OutcomeRequest, timeoutMs?: number): Case => ({ name: `backend: ${name}`, profile: 'backend', request, ...(timeoutMs ? { timeoutMs } : {}) });
  return [
    c('tools/list', list(1)),
    c('fast', call('fast', { q: 'hello' })),
    c('fast with unicode', call('fast', { q: 'é✓😀"\\' })),
    c('fast bad input', call('fast', { q: 1 })),
    c('fast missing input', call('fast', {})),
    c('slow past the tool timeout', call('slow', { q: 's' }), 5000),
    c('slow past the request deadline', call('slowbound', { q: 's' }), 5000),
    c('oversized reply', call('big', { q: 'b' })),
    c('reply exactly at maxBytes', call('exact', { q: 'e' })),
    c('refused (nothing listens)', call('refused', { q: 'r' })),
    c('origin answers 500', call('status500', { q: 'x' })),
    c('origin answers non-JSON', call('notjson', { q: 'x' })),
    c('origin answers invalid UTF-8', call('binary', { q: 'x' })),
    c('origin answers with a BOM', call('bom', { q: 'x' })),
    c('origin answers the wrong shape', call('wrongshape', { q: 'x' })),
    c('origin streams its reply', call('chunked', { q: 'x' })),
    c('tool without output', call('noout', { q: 'x' })),
    c('GET tool without input', call('get', undefined)),
    c('GET tool given input', call('get', { q: 'x' })),
  ];
}

function catalogCases(): Case[] {
  const c = (name: string, request: OutcomeRequest, timeoutMs?: number): Case => ({ name: `catalog: ${name}`, profile: 'catalog', request, ...(timeoutMs ? { timeoutMs } : {}) });
  return [
    c('tools/list', list(1)),
    c('a result', call('echo', { q: 'hello' })),
    c('a result, unknown member dropped first', call('echo', { q: 'é✓😀"\\', extra: 1 })),
    c('no input, no output', call('nothing', {})),
    c('no input given input', call('nothing', { a: 1 })),
    c('bad input never reaches the backend', call('echo', { q: 1 })),
    c('unknown tool', call('absent', {})),
    c('output of the wrong shape', call('wrongshape', { q: 'x' })),
    c('governed execution failure', call('exec', { q: 'x' })),
    c('governed input refusal', call('params', { q: 'x' })),
    c('reply with another id', call('wrongid', { q: 'x' })),
    c('catalog and backend disagree', call('unknown', { q: 'x' })),
    c('deadline during the call', call('slow', { q: 'x' }), 5000),
    c('reply that is not JSON', call('notjson', { q: 'x' })),
  ];
}

/** The authorization profile: every refusal and grant, with the bearer (or none) as each names. */
function authzCases(): Case[] {
  const c = (name: string, request: OutcomeRequest): Case => ({ name: `authz: ${name}`, profile: 'authz', request });
  const bearer = (r: OutcomeRequest, token: string, scheme = 'Bearer'): OutcomeRequest => ({ ...r, headers: [...r.headers, ['authorization', `${scheme} ${token}`]] });
  const note = post(modernHeaders('notifications/initialized'), envelope('notifications/initialized', undefined));
  return [
    c('no credentials', list(1)),
    c('no credentials on a notification', note),
    c('another scheme', bearer(list(1), 'dXNlcjpwYXNz', 'Basic')),
    c('a malformed bearer', bearer(list(1), 'a b')),
    c('a token over 8192 characters', bearer(list(1), 'a'.repeat(8193))),
    c('a token in the query string', { ...bearer(list(1), 'diff-all'), path: '/mcp?access_token=diff-all' }),
    c('an inactive token', bearer(list(1), 'diff-unknown')),
    c('a token without the baseline scope', bearer(list(1), 'diff-nobase')),
    c('the verifier fails', bearer(list(1), 'diff-error')),
    c('the verifier answers no JSON', bearer(list(1), 'diff-notjson')),
    c('baseline: the listing shows the baseline operation', bearer(list(1), 'diff-base')),
    c('every scope: the listing shows the mapped operations', bearer(list(1), 'diff-all')),
    c('baseline: discover', bearer(discover(1), 'diff-base')),
    c('baseline: a notification is accepted', bearer(note, 'diff-base')),
    c('baseline: a baseline operation runs', bearer(call('nothing', {}), 'diff-base')),
    c('baseline: an operation scope missing', bearer(call('echo', { q: 'x' }), 'diff-base')),
    c('every scope: the operation runs', bearer(call('echo', { q: 'x' }), 'diff-all')),
    c('every scope: an unmapped operation is denied', bearer(call('wrongshape', { q: 'x' }), 'diff-all')),
    c('every scope: an unknown operation is denied', bearer(call('absent', {}), 'diff-all')),
    c('metadata', { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp', headers: [] }),
    c('metadata, HEAD', { method: 'HEAD', path: '/.well-known/oauth-protected-resource/mcp', headers: [] }),
    c('metadata, POST', { method: 'POST', path: '/.well-known/oauth-protected-resource/mcp', headers: [CT], body: '{}' }),
  ];
}

export function buildCorpus(): Case[] {
  const rows: Case[] = OUTCOMES.filter((r) => r.only !== 'fetch').map((r) => ({
    name: `table: ${r.name}`,
    profile: r.profile,
    request: r.request,
    ...(r.timeoutMs ? { timeoutMs: r.timeoutMs } : {}),
  }));
  return [...rows, ...exampleCases(), ...oddIdCases(), ...headerMixCases(), ...bodyCases(), ...backendCases(), ...surfaceCases(), ...catalogCases(), ...authzCases()];
}
