/**
 * The `pulse-mcp` command line: usage and dispatch; each command lives in its own module of this
 * folder. Exit status: 0 done, 1 the command was refused or failed (the reason is printed), 2 usage.
 */
import { ManifestError, TARGETS } from '../compiler';
import { buildCommand, compileCommand, loadFailure, moduleArgument } from './build';
import { diffCommand } from './diff/command';
import { initCommand } from './init';
import { packageVersion } from './package';
import { CommandError, UsageError } from './usage';

const HELP = `pulse-mcp: statically declared MCP tools for the Pulse MCP hosts and Fastly Compute.

usage:
  pulse-mcp build <module> --target fastly-native --wasm <file> [--fastly-toml <file>] [--out <dir>]
      Write the Fastly Compute binary of the service <module> declares (bin/main.wasm for the Fastly
      CLI): the package's prebuilt Native service, configured and pre-initialised with Wizer (the
      optional peer @bytecodealliance/wizer); no Rust toolchain, repository or network. <module>
      exports \`const server = mcp({ router, serverInfo })\` (the static binding, read without running
      it) or host \`options\` whose \`tools\` are catalog artifacts (evaluated; secrets as
      { secretStore, key } references). Every backend, secret store and log endpoint the service names
      must be declared in the service's fastly.toml (beside <module>, or --fastly-toml <file>).
  pulse-mcp build <module> --target fastly-javascript --wasm <file>
      The same for a static binding whose router has JavaScript handlers, on Fastly's JavaScript
      runtime, built with the optional peer @fastly/js-compute; that runtime realizes no CPU deadline.
  pulse-mcp build <module> --out <dir> [--router <id>] [--target <target>] [--evidence <report>]
      Read the module's declarations without running it (the TypeScript compiler, an optional peer
      dependency, parses it) and write entities-catalog.json, schema-json-registry.json and
      entities-inspection.json (what each handler may do, by capability, never a value). A value the
      module computes (a call of its own function, a spread, a computed name, a codec built in a
      loop) is refused with file:line:column and what to write instead.
      --target <target>   refuse operations the target cannot run; targets:
                          ${TARGETS.join(', ')}
                          For a Native target, a module that exports
                          \`const server = mcp({ router, serverInfo })\` is the service: the
                          call is read too (serverInfo, legacyProtocol, limits: static values)
                          and manifest.json and mcp-binding.json (POST /mcp, every Origin
                          refused, the static ceilings lowered by the limits; a raise is
                          refused) are written for the Native build
      --evidence <report> add, per operation, the targets a differential run served it on (the
                          report pulse-mcp diff writes); without it each operation's evidence
                          is null
  pulse-mcp compile <router module> --out <dir> [--response-bytes N] [--request-bytes N]
      Evaluate the module, compile its router and write manifest.json, entities-catalog.json and
      schema-json-registry.json to <dir>. The module's default (or \`router\`) export is an EntityRouter
      or a RouterDefinition. The core checks the manifest first, under the default limits or the
      ones given (the static /pulse binding uses --response-bytes 131072 --request-bytes 32768).
  pulse-mcp init [dir]
      Write a starter project into <dir> (default: the current directory), which must be empty or
      absent: package.json (this package, Wizer and TypeScript pinned; npm start, npm run build,
      npm run diff), service.mjs (a static tool and a corpus tool bound with mcp()), serve.mjs
      (npm start: the service on Node at http://127.0.0.1:3000/mcp, HOST and PORT override),
      fastly.toml (the Fastly CLI builds with npm run build), README.md and .gitignore.
  pulse-mcp diff <module> [--wasm <file>] [--fastly-toml <file>] [--viceroy <path>] [--report <file>]
      Serve the service <module> declares on every target and compare the answers: on Node (the
      reference: the module's server.nodeListener(), or createMcpNodeHandler(options) for host
      options without authorization, their secrets read from fastly.toml's
      [local_server.secret_stores]), as its Native binary (--wasm, else built as build --wasm does)
      in the Node Native host, and on Viceroy (--viceroy <path>, else viceroy on PATH; skipped
      without one). The cases are generated: per operation valid and invalid calls from its
      inputSchema, discovery, tools/list, an undeclared tool, and the admission rules at the
      binding's limits. Status, content-type, cache-control, allow, www-authenticate and the body
      bytes must match the reference; each disagreement is printed with both answers. Writes the
      evidence report build --evidence reads (--report, default diff-evidence.json); exit status 1
      when a case disagrees or a target does not answer.
  pulse-mcp --help | --version

exit status: 0 done, 1 the module, a declaration or the build was refused (the reason is printed), 2 usage.
`;

const COMMANDS: Record<string, (args: readonly string[]) => Promise<void>> = {
  build: buildCommand,
  compile: compileCommand,
  diff: diffCommand,
  init: initCommand,
};

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (cmd === '--version') {
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    const command = cmd === undefined ? undefined : COMMANDS[cmd];
    if (command === undefined || !Object.prototype.hasOwnProperty.call(COMMANDS, cmd!)) throw new UsageError(cmd === undefined ? 'no command' : `unknown command ${cmd}`);
    await command(rest);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`pulse-mcp: ${err.message}\n\n${HELP}`);
      return 2;
    }
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof CommandError || err instanceof ManifestError || (typeof code === 'string' && code.startsWith('PULSE_ERR_'))) {
      process.stderr.write(`pulse-mcp: ${(err as Error).message}\n`);
      return 1;
    }
    // A declaration builder threw something untyped: still the cause, never a bare "failed".
    process.stderr.write(`pulse-mcp: ${loadFailure(moduleArgument(rest), err)}\n`);
    return 1;
  }
}
