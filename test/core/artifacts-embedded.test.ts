// The artifacts the loader embeds are the committed ones, and the manifest describes them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_WASM_BASE64 } from '../../src/core/artifacts/core-wasm';

const root = path.resolve(__dirname, '..', '..');
const read = (f: string) => readFileSync(path.join(root, f));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('embedded and committed core artifacts', () => {
  const manifest = JSON.parse(read('wasm/manifest.json').toString('utf8'));

  it('manifest sizes and sha256 match wasm/ files', () => {
    for (const key of ['wasm', 'wasm2js']) {
      const bytes = read(path.join('wasm', manifest[key].file));
      expect({ bytes: bytes.length, sha256: sha(bytes) }, key).toEqual({ bytes: manifest[key].bytes, sha256: manifest[key].sha256 });
    }
  });

  it('the embedded wasm is byte-identical to wasm/pulse_core.wasm', () => {
    expect(sha(Buffer.from(CORE_WASM_BASE64, 'base64'))).toBe(sha(read('wasm/pulse_core.wasm')));
  });

  it('the wasm2js variant carries no SIMD and imports nothing from the host', () => {
    const text = read('wasm/pulse_core.wasm2js.js').toString('utf8');
    expect(text).not.toMatch(/^\s*import\b/m);
    expect(manifest.wasm2js.features ?? []).not.toContain('simd128');
  });
});
