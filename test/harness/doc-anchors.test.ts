// Documents are cited by their headings' anchors (`docs/contracts.md#engine-configuration`), as
// GitHub renders them: a renamed or moved heading must fail here, not leave a dead citation.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, slug, unfenced } from '../support/markdown';

const root = join(__dirname, '..', '..');

/** Files that may cite a document: tracked or new, never ignored; generated copies left out. */
const TEXT = /\.(md|ts|mts|cts|mjs|cjs|js|rs|sh|toml)$/;
const GENERATED = new Set(['edge/corpus.json', 'wasm/pulse_core.wasm2js.js']);
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => TEXT.test(f) && !GENERATED.has(f) && existsSync(join(root, f)) && statSync(join(root, f)).size < 2_000_000);

const cache = new Map<string, Set<string>>();
function anchorsOf(path: string): Set<string> {
  let a = cache.get(path);
  if (a === undefined) cache.set(path, (a = anchors(readFileSync(path, 'utf8'))));
  return a;
}

/** Why `file#anchor` (an absolute path) does not resolve, or undefined when it does. */
function unresolved(target: string, anchor: string | undefined): string | undefined {
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined || anchor === '' || !target.endsWith('.md')) return undefined;
  return anchorsOf(target).has(anchor) ? undefined : `no heading with the anchor #${anchor}`;
}

describe('citations of documents', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug("The core's Rust API")).toBe('the-cores-rust-api');
    expect(slug('Authorization (OAuth 2.1 resource server)')).toBe('authorization-oauth-21-resource-server');
    expect(slug('Rust API (Fastly Native links this directly)')).toBe('rust-api-fastly-native-links-this-directly');
    expect(slug('`manifest.json`')).toBe('manifestjson');
    expect(slug('Catalog-backed tools: a host in front of a backend')).toBe('catalog-backed-tools-a-host-in-front-of-a-backend');
    expect(slug('Figures (this machine: 2 shared cores, load ≈ 0.6)')).toBe('figures-this-machine-2-shared-cores-load--06');
  });

  it('every docs/<file>.md#anchor citation resolves to a heading of that file', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      const lines = readFileSync(join(root, file), 'utf8').split(/\r?\n/);
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w/.-])(?:\.\.\/)*docs\/([A-Za-z0-9_.-]+\.md)#([A-Za-z0-9_-]+)/g)) {
          count++;
          const why = unresolved(join(root, 'docs', m[1]!), m[2]);
          if (why !== undefined) broken.push(`${file}:${i + 1}: docs/${m[1]}#${m[2]}: ${why}`);
        }
      });
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(20);
  });

  it('every relative link in the markdown resolves to a file, and to a heading of it', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      unfenced(readFileSync(join(root, file), 'utf8')).forEach((line, i) => {
        for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const link = m[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
          count++;
          const [path, anchor] = link.split('#', 2) as [string, string | undefined];
          const target = path === '' ? join(root, file) : normalize(join(root, dirname(file), path));
          const why = relative(root, target).startsWith('..') ? 'outside the repository' : unresolved(target, anchor);
          if (why !== undefined) broken.push(`${file}:${i + 1}: ${link}: ${why}`);
        }
      });
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(20);
  });
});
