// The package guide's code, as copies of its text in ./snippets (one file per snippet, each ending
// in one newline that is not part of it), the guide itself when it sits beside the checkout, and
// the edit helper: each text it replaces must occur exactly once, so a snippet that changed fails
// loudly instead of running unedited.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = new URL('./snippets/', import.meta.url);

/** Every copy, by file name without `.txt`. */
export function loadSnippets() {
  const out = {};
  for (const f of readdirSync(DIR).filter((n) => n.endsWith('.txt')).sort()) {
    out[f.slice(0, -4)] = readFileSync(new URL(f, DIR), 'utf8').replace(/\n$/, '');
  }
  return out;
}

/** Where the package guide lives beside the checkout (`<checkout>/../shared/seeds`), or null. */
export function guideDir(root) {
  const dir = join(root, '..', 'shared', 'seeds');
  return existsSync(dir) ? dir : null;
}

/** The package guide's text: the one `000_*.txt` in `dir`. */
export function guideText(dir) {
  const found = readdirSync(dir).filter((n) => /^000_.*\.txt$/.test(n));
  if (found.length !== 1) throw new Error(`${dir}: expected one 000_*.txt, found ${found.length}`);
  return readFileSync(join(dir, found[0]), 'utf8');
}

/**
 * The copies the guide does not hold verbatim. A copy of several lines must be a whole block (a
 * blank line on each side), so a line the guide adds to a block is a difference too; a one-line
 * copy is a phrase of its prose.
 */
export function differingCopies(snippets, guide) {
  return Object.entries(snippets)
    .filter(([, text]) => !(text.includes('\n') ? guide.includes(`\n\n${text}\n\n`) : guide.includes(text)))
    .map(([name]) => name);
}

/** `text` with each `[from, to]` applied; every `from` must occur exactly once. */
export function substitute(text, pairs) {
  let out = text;
  for (const [from, to] of pairs) {
    const n = out.split(from).length - 1;
    if (n !== 1) throw new Error(`a snippet holds ${JSON.stringify(from)} ${n} times, not once`);
    out = out.replace(from, () => to);
  }
  return out;
}
