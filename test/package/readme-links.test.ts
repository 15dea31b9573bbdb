// Every link in the markdown the package ships works where its users read it. In the installed
// package a relative link must name a file the tarball carries (and its #anchor a heading there);
// a link into the repository on GitHub must name a file of this checkout (and its #anchor a
// heading of it). The shipped files are the ones `npm pack` packs, so a link to a file that stays
// in the repository fails here even though it resolves in a clone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { anchors, unfenced } from '../support/markdown';
import { run } from '../support/run';

const root = join(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/pulse-compute/mcp';
/** A file (`blob`) or a directory (`tree`) of the default branch, with an optional anchor. */
const REPOSITORY_PATH = /^https:\/\/github\.com\/pulse-compute\/mcp\/(blob|tree)\/main\/([^#?]+)(?:#(.*))?$/;

/** Files of the checkout: tracked or new, never ignored (what a commit of this tree publishes). */
const checkout = new Set(
  execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== ''),
);

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/**
 * Every link destination of a markdown text outside code: inline links and images `[…](dest)`,
 * reference definitions `[id]: dest`, autolinks `<https://…>` and HTML `href`/`src` attributes.
 */
function linksOf(file: string, text: string): Link[] {
  const out: Link[] = [];
  unfenced(text).forEach((raw, i) => {
    // Code spans are text, not links; the brackets around them stay.
    const line = raw.replace(/(`+)[\s\S]*?\1/g, '');
    const add = (target: string) => out.push({ file, line: i + 1, target });
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) add(m[1]!.replace(/^<|>$/g, ''));
    const def = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (def !== null) add(def[1]!.replace(/^<|>$/g, ''));
    for (const m of line.matchAll(/<((?:https?|mailto):[^>\s]+)>/g)) add(m[1]!);
    for (const m of line.matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/g)) add(m[1]!);
  });
  return out;
}

/** Why a link does not work for a package user, or undefined when it does. */
function broken(link: Link, shipped: ReadonlySet<string>): string | undefined {
  const { file, target } = link;
  if (target.startsWith(REPOSITORY)) {
    const m = REPOSITORY_PATH.exec(target);
    if (m === null) return `a link into the repository must be ${REPOSITORY}/blob/main/<file> or /tree/main/<directory>`;
    const [, kind, path, anchor] = m as unknown as [string, 'blob' | 'tree', string, string | undefined];
    const clean = path.replace(/\/$/, '');
    if (kind === 'tree') return [...checkout].some((f) => f.startsWith(`${clean}/`)) ? undefined : 'no such directory in the checkout';
    if (!checkout.has(clean)) return 'no such file in the checkout';
    return missingAnchor(readFileSync(join(root, clean), 'utf8'), clean, anchor);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined;
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURI(path)));
  if (resolved.startsWith('../') || posix.isAbsolute(resolved)) return 'outside the package';
  if (!shipped.has(resolved)) return `${resolved} is not in the package (npm pack)`;
  return missingAnchor(readFileSync(join(root, resolved), 'utf8'), resolved, anchor);
}

function missingAnchor(text: string, path: string, anchor: string | undefined): string | undefined {
  if (anchor === undefined || anchor === '' || !path.endsWith('.md')) return undefined;
  return anchors(text).has(anchor) ? undefined : `no heading with the anchor #${anchor} in ${path}`;
}

let shipped: Set<string>;
let markdown: string[];

beforeAll(async () => {
  const r = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeoutMs: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  shipped = new Set(JSON.parse(r.stdout)[0].files.map((f: { path: string }) => f.path));
  markdown = [...shipped].filter((f) => f.endsWith('.md')).sort();
}, 150_000);

describe('links in the markdown the package ships', () => {
  it('finds links of every syntax, outside code only', () => {
    const text = [
      'See [a](guide/a.md#x "title"), ![i](<img/b c.png>) and [`c`](../c.md).',
      '[ref]: https://example.com/r',
      'Mail <mailto:me@example.com>, <a href="d.md">d</a>; not `[e](e.md)` nor this:',
      '```',
      '[f](f.md)',
      '```',
    ].join('\n');
    expect(linksOf('README.md', text).map((l) => [l.line, l.target])).toEqual([
      [1, 'guide/a.md#x'],
      [1, 'img/b c.png'],
      [1, '../c.md'],
      [2, 'https://example.com/r'],
      [3, 'mailto:me@example.com'],
      [3, 'd.md'],
    ]);
  });

  it('judges a link as a package user meets it', () => {
    const files = new Set(['README.md', 'docs/tools.md']);
    const judge = (file: string, target: string) => broken({ file, line: 1, target }, files);
    expect(judge('README.md', 'docs/tools.md#input-schemas')).toBeUndefined();
    expect(judge('docs/tools.md', '../README.md#beyond-the-documents')).toBeUndefined();
    // Built, so that the repository's check of document citations does not read it as one.
    expect(judge('README.md', ['docs/tools.md', 'no-such-heading'].join('#'))).toBe('no heading with the anchor #no-such-heading in docs/tools.md');
    // In the checkout, but not in the tarball.
    expect(judge('README.md', 'CONTRIBUTING.md')).toBe('CONTRIBUTING.md is not in the package (npm pack)');
    expect(judge('docs/tools.md', '../../x.md')).toBe('outside the package');
    expect(judge('README.md', `${REPOSITORY}/blob/main/CONTRIBUTING.md`)).toBeUndefined();
    expect(judge('README.md', `${REPOSITORY}/tree/main/examples`)).toBeUndefined();
    expect(judge('README.md', `${REPOSITORY}/blob/main/docs/contracts.md#layout`)).toBeUndefined();
    expect(judge('README.md', `${REPOSITORY}/blob/main/docs/contracts.md#nowhere`)).toBe('no heading with the anchor #nowhere in docs/contracts.md');
    expect(judge('README.md', `${REPOSITORY}/blob/main/no-such-file.md`)).toBe('no such file in the checkout');
    expect(judge('README.md', `${REPOSITORY}/blob/master/README.md`)).toMatch(/must be/);
    expect(judge('README.md', 'https://modelcontextprotocol.io')).toBeUndefined();
  });

  it('ships the README and the user documents', () => {
    expect(markdown).toContain('README.md');
    expect(markdown.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('has no dead link in any shipped markdown file', () => {
    const links = markdown.flatMap((f) => linksOf(f, readFileSync(join(root, f), 'utf8')));
    const dead = links.flatMap((l) => {
      const why = broken(l, shipped);
      return why === undefined ? [] : [`${l.file}:${l.line}: ${l.target}: ${why}`];
    });
    expect(dead).toEqual([]);
    expect(links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target)).length).toBeGreaterThan(20);
    expect(links.filter((l) => l.target.startsWith(`${REPOSITORY}/`)).length).toBeGreaterThan(5);
  });
});
