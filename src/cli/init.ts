/**
 * `pulse-mcp init [dir]`: writes the starter project (./starter) into an empty or absent directory,
 * pinned to this package's version and to the versions its build runs with.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { WIZER_VERSION } from './native-service';
import { packageRoot, packageVersion } from './package';
import { NODE_ENTRY, starterFiles, WASM_OUT } from './starter';
import { CommandError, UsageError } from './usage';

/** npm's longest name is 214 characters; serverInfo.name, which the starter uses it for, takes 128. */
const NAME_MAX = 128;
/** Names npm refuses whatever their characters. */
const NPM_RESERVED = ['node_modules', 'favicon.ico'];
const FALLBACK_NAME = 'mcp-service';

/** A valid npm package name from a directory's name: lower case, URL-safe, not starting with . or _. */
export function npmName(dirName: string): string {
  const name = dirName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._~-]+/, '')
    .slice(0, NAME_MAX)
    .replace(/-+$/, '');
  return name === '' || NPM_RESERVED.includes(name) ? FALLBACK_NAME : name;
}

/**
 * The TypeScript version this package builds with, from its own package.json (which the published
 * package keeps with its devDependencies): the starter parses its service with the same compiler.
 */
function pinnedTypeScript(): string {
  const manifest = join(packageRoot(), 'package.json');
  const v = (JSON.parse(readFileSync(manifest, 'utf8')) as { devDependencies?: Record<string, unknown> }).devDependencies?.typescript;
  if (typeof v !== 'string' || !/^[0-9]+\.[0-9]+\.[0-9]+$/.test(v)) throw new CommandError(`${manifest} pins no exact typescript version in devDependencies; reinstall @pulse-compute/mcp`);
  return v;
}

/** Refuses a target that exists and is not an empty directory. */
function checkTarget(path: string, shown: string): void {
  let entries: string[];
  try {
    if (!statSync(path).isDirectory()) throw new CommandError(`${shown} exists and is not a directory; pulse-mcp init writes a new project into an empty or absent directory`);
    entries = readdirSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    if (e instanceof CommandError) throw e;
    throw new CommandError(`${shown} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (entries.length > 0) {
    throw new CommandError(`${shown} is not empty (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}); pulse-mcp init writes a new project into an empty or absent directory`);
  }
}

/** A path as a shell command line takes it. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./~@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export async function initCommand(args: readonly string[]): Promise<void> {
  let dir: string | undefined;
  for (const arg of args) {
    if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    if (dir !== undefined) throw new UsageError(`unexpected argument ${arg}: init takes one directory`);
    dir = arg;
  }
  const shown = dir ?? '.';
  const target = resolve(shown);
  checkTarget(target, shown);
  const name = npmName(basename(target));
  const files = starterFiles(name, { pulse: packageVersion(), wizer: WIZER_VERSION, typescript: pinnedTypeScript() });
  mkdirSync(target, { recursive: true });
  // 'wx': a file that appeared since the check is never overwritten.
  for (const [file, text] of Object.entries(files)) writeFileSync(join(target, file), text, { flag: 'wx' });
  const cd = dir === undefined ? [] : [`cd ${shellWord(dir)}`];
  process.stdout.write(
    [
      `wrote the project ${name} in ${shown}: ${Object.keys(files).join(', ')}`,
      '',
      'next:',
      ...[
        ...cd,
        'npm install',
        `npm start              # ${NODE_ENTRY}: http://127.0.0.1:3000/mcp`,
        `fastly compute serve   # npm run build (${WASM_OUT}), then Viceroy: http://127.0.0.1:7676/mcp`,
        'fastly compute publish # deploys it (a Fastly account)',
      ].map((l) => `  ${l}`),
      '',
    ].join('\n'),
  );
}
