// The product's build scripts stand on their own: nothing under scripts/ imports from tools/ (the
// tooling may import from scripts/lib, never the other way round). A static check of the sources,
// so it runs once here rather than on every Node line with the product's suites.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..');
const TOOLS = join(ROOT, 'tools') + sep;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(m|c)?(j|t)s$/.test(e.name) ? [path] : [];
  });
}

/** Every module specifier of a source: static and dynamic imports, re-exports, require. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const forms = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\b(?:import|require)\s*\(\s*(['"`])([^'"`]+)\1/g];
  for (const form of forms) for (const m of text.matchAll(form)) out.push(m[2]);
  return out;
}

/** The imports of `dir`'s sources that resolve into tools/, as `file: specifier`. */
function toolImports(dir: string): string[] {
  return sources(dir).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8'))
      .filter((s) => s.startsWith('.') && (resolve(dirname(file), s) + sep).startsWith(TOOLS))
      .map((s) => `${relative(ROOT, file)}: ${s}`),
  );
}

describe('product and tooling apart', () => {
  it('finds every import form', () => {
    const text = "import { a } from '../tools/x.mjs';\nexport * from \"../tools/y.mjs\";\nimport '../tools/z.mjs';\nawait import('../tools/w.mjs');\nrequire(`../tools/v.cjs`);\n";
    expect(specifiers(text)).toEqual(['../tools/x.mjs', '../tools/y.mjs', '../tools/z.mjs', '../tools/w.mjs', '../tools/v.cjs']);
  });

  it('no file under scripts/ imports from tools/', () => {
    expect(toolImports(join(ROOT, 'scripts'))).toEqual([]);
  });
});
