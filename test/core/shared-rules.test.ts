// What the TypeScript sources take from the core rather than restate: each row checks a rule the
// two sides once stated separately against the core's own answer.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRouter } from '../../src/compiler';
import type { CoreExports } from '../../src/core/exports';
import { drive, type HostCore } from '../../src/core/driver';
import { Engine, internalError } from '../../src/core/engine';
import type { RouterDefinition } from '../../src/router/definition';

const root = path.resolve(__dirname, '..', '..');

/** The core's pulse_defaults_* answer, read without the glue generator. */
function coreShared(): Record<string, unknown> {
  const wasm = readFileSync(path.join(root, 'wasm/pulse_core.wasm'));
  const core = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as CoreExports;
  const len = core.pulse_defaults_len();
  const ptr = core.pulse_defaults_ptr();
  return JSON.parse(Buffer.from(core.memory.buffer, ptr, len).toString('utf8'));
}

describe('the driver guard is the core\'s', () => {
  it('a core answering CONTINUE with no time left is given up on after the core\'s maxZeroWaits ticks', async () => {
    let ticks = 0;
    const request = {
      head: () => ({ kind: 'continue' }),
      timeoutMs: () => 0,
      tick: () => {
        ticks += 1;
        return { kind: 'continue' };
      },
      free: () => {},
    };
    const host = { engine: { request: () => request } as unknown as Engine, requestBytes: 1, handlers: undefined, exchange: async () => 'unreachable' } as HostCore;
    const body = { read: () => new Promise<never>(() => {}), cancel: () => {} };
    const outcome = await drive(host, { method: 'POST', target: '/mcp', headers: [] }, body, undefined);
    expect({ status: outcome.response.status, ticks }).toEqual({ status: internalError().status, ticks: (coreShared().maxZeroWaits as number) + 1 });
  });
});

/** A router of one static tool named `name`. */
const oneTool = (name: string): RouterDefinition =>
  ({ id: 'shared', operations: [{ name, handler: { kind: 'static', result: null } }], budgets: { deadlineMs: 1000 } }) as unknown as RouterDefinition;

/** The compiler's refusal of `name`, or 'ok'. */
function compilerVerdict(name: string): string {
  try {
    compileRouter(oneTool(name));
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

/** The core's refusal of a manifest whose one tool is `name`, or 'ok'. */
function coreVerdict(name: string): string {
  const placeholder = 'placeholder_tool';
  const manifest = JSON.stringify(compileRouter(oneTool(placeholder)).manifest);
  // The name appears as a JSON string and inside the list's JSON text: escape it for both.
  const text = manifest.split(placeholder).join(JSON.stringify(JSON.stringify(name).slice(1, -1)).slice(1, -1));
  try {
    Engine.create(JSON.stringify({ tools: JSON.parse(text) }));
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the name rule is the core\'s', () => {
  const rule = (coreShared().name as { rule: string }).rule;
  it.each([
    ['128 characters', 'a'.repeat(128), 'ok', 'ok'],
    ['every punctuation allowed', 'A-z_0.9', 'ok', 'ok'],
    ['129 characters', 'a'.repeat(129), `operation name must be ${rule}`, `tools[0]: tool names must be ${rule}`],
    ['empty', '', `operation name must be ${rule}`, `tools[0]: tool names must be ${rule}`],
    ['a space', 'a b', `operation name must be ${rule}`, `tools[0]: tool names must be ${rule}`],
    ['a slash', 'a/b', `operation name must be ${rule}`, `tools[0]: tool names must be ${rule}`],
    ['non-ASCII', '\u00e9', `operation name must be ${rule}`, `tools[0]: tool names must be ${rule}`],
  ])('%s: the compiler and the core agree', (_label, name, compiler, core) => {
    expect({ compiler: compilerVerdict(name), core: coreVerdict(name) }).toEqual({ compiler, core });
  });
});

/** A router of one tool `a` with a json output and the static result `result`. */
const staticTool = (result: unknown): RouterDefinition =>
  ({
    id: 'shared',
    operations: [{ name: 'a', output: { kind: 'json', maxBytes: 1048576, maxDepth: 32 }, handler: { kind: 'static', result } }],
    budgets: { deadlineMs: 1000 },
  }) as unknown as RouterDefinition;

/** The core's refusal of a manifest whose one static result is the JSON text `text`, or 'ok'. */
function coreStaticVerdict(text: string): string {
  const manifest = compileRouter(staticTool(null)).manifest as unknown as { tools: { handler: { result: string } }[] };
  manifest.tools[0].handler.result = text;
  try {
    Engine.create(JSON.stringify({ tools: manifest }));
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the static-result rule is the core\'s', () => {
  const rule = (coreShared().staticResult as { rule: string }).rule;
  const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
  const emptyNested = (levels: number): unknown => (levels === 1 ? [] : [emptyNested(levels - 1)]);
  it.each([
    ['32 levels', nested(32), 'ok', 'ok'],
    ['33 levels', nested(33), `operation "a": static result must be ${rule}`, `tools[0] (a): static result must be ${rule}`],
    ['33 levels, the innermost empty', emptyNested(33), `operation "a": static result must be ${rule}`, `tools[0] (a): static result must be ${rule}`],
    ['65536 bytes', 'x'.repeat(65534), 'ok', 'ok'],
    ['65537 bytes', 'x'.repeat(65535), `operation "a": static result must be ${rule}`, `tools[0] (a): static result must be ${rule}`],
  ])('%s: the compiler and the core agree', (_label, result, compiler, core) => {
    let compiled = 'ok';
    try {
      compileRouter(staticTool(result));
    } catch (e) {
      compiled = (e as Error).message;
    }
    expect({ compiler: compiled, core: coreStaticVerdict(JSON.stringify(result)) }).toEqual({ compiler, core });
  });
});
