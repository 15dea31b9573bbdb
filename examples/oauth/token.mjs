// Gets or revokes an access token at the example's issuer, as the MCP client would:
//   node examples/oauth/token.mjs mint --issuer <url> --resource <url> --scope "mcp:access notes:read" [--login alice]
//   node examples/oauth/token.mjs revoke --issuer <url> --token=<token>
// (`--token=`: an access token may begin with `-`, which would otherwise read as an option)
// `mint` runs the authorization-code flow with PKCE and the resource indicator (./flow.mjs) and
// prints only the access token, so `export PULSE_MCP_ACCESS_TOKEN=$(node … mint …)` works.
import { parseArgs } from 'node:util';
import { accessToken, revoke } from './flow.mjs';

const usage = 'usage: token.mjs mint --issuer <url> --resource <url> --scope <scopes> [--login <name>] | revoke --issuer <url> --token=<token>';
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { issuer: { type: 'string' }, resource: { type: 'string' }, scope: { type: 'string' }, login: { type: 'string' }, token: { type: 'string' } } });
} catch (e) {
  process.stderr.write(`${e.message}\n${usage}\n`);
  process.exit(2);
}
const { positionals: [command], values } = parsed;
const need = (name) => {
  if (values[name] === undefined) {
    process.stderr.write(`${command} needs --${name}\n${usage}\n`);
    process.exit(2);
  }
  return values[name];
};
if (command === 'mint') {
  const token = await accessToken({ issuer: need('issuer'), resource: need('resource'), scope: need('scope'), login: values.login ?? 'alice' });
  process.stdout.write(`${token}\n`);
} else if (command === 'revoke') {
  await revoke({ issuer: need('issuer'), token: need('token') });
  process.stdout.write('revoked\n');
} else {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
