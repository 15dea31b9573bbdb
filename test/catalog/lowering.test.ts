// The registry's schemas read back into codec programs: for generated codecs, and for the example
// routers, lowering the published projection gives the program the compiler emitted. The only
// differences are the documented ones: a u32 range that fits i32 is read as i32 (the same values),
// a `json` node's byte and depth bounds are not in the schema (the host bounds it by its own
// ceilings), and an output's strict object reads as closed (both publish `false`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogManifest } from '../../src/catalog/artifacts';
import { lowerSchema } from '../../src/catalog/schema-program';
import { compileRouter } from '../../src/compiler';
import { compileProgram, project, type Direction } from '../../src/compiler/projection';
import type { CodecProgram, ProgramNode } from '../../src/compiler/types';
import type { CodecDescriptor } from '../../src/router/codec-types';
import { routerDefinition } from '../../src/router/router';
import { tools as contextRouter } from '../../edge/context.mjs';
import { contactForm } from '../../examples/conformance/contact.mjs';
import { codec, EntityRouter } from '../../src/pulse';
import { descriptor } from '../support/codec-gen';

const I32_MAX = 2147483647;

function normalize(program: CodecProgram | null, direction: Direction): unknown {
  return program?.map((n: ProgramNode) => {
    if (n[0] === 'u32' && n[2] <= I32_MAX) return ['i32', n[1], n[2]];
    if (n[0] === 'json') return ['json'];
    if (n[0] === 'object' && direction === 'output' && n[1] === 2) return ['object', 0, ...n.slice(2)];
    return n;
  }) ?? null;
}

const fail = (at: string, reason: string): never => {
  throw new Error(`${at}: ${reason}`);
};

describe('lowering the schema registry', () => {
  it('gives back the compiled program of generated codecs, inputs and outputs', () => {
    fc.assert(
      fc.property(descriptor, (d) => {
        const input: CodecDescriptor = { kind: 'object', fields: { v: { codec: d, optional: false } } };
        for (const [root, direction] of [[input, 'input'], [d, 'output']] as const) {
          const lowered = lowerSchema(project(root, direction, 'generated').schema, direction, fail);
          expect(normalize(lowered.program, direction)).toEqual(normalize(compileProgram(root, 'generated'), direction));
        }
      }),
      { numRuns: 400 },
    );
  });

  // The conformance suite's contact form: named definitions, alternative groups, a conditional.
  const contact = contactForm(codec) as Parameters<typeof codec.optional>[0];
  const contactRouter = new EntityRouter('contact')
    .operation('submit', { input: contact as never, output: contact, headerParams: { name: 'Contact-Name' }, handler: () => ({}) })
    .operation('ping', { handler: () => undefined });
  for (const [name, router] of [['context', contextRouter], ['contact', contactRouter]] as const) {
    it(`gives back every program of the ${name} router from its artifacts`, () => {
      const compiled = compileRouter(routerDefinition(router));
      const lowered = catalogManifest(
        { catalog: compiled.catalog, schemas: compiled.schemaRegistry, routerId: compiled.catalog.routerId, target: 'node-javascript', endpoint: 'https://rpc.example/' },
        { responseBytes: 1 << 20, deadlineMs: 10000 },
      );
      expect(lowered.tools.map((t) => t.name)).toEqual(compiled.manifest.tools.map((t) => t.name));
      compiled.manifest.tools.forEach((tool, i) => {
        expect(normalize(lowered.tools[i]!.input, 'input'), `${tool.name} input`).toEqual(normalize(tool.input, 'input'));
        expect(normalize(lowered.tools[i]!.output, 'output'), `${tool.name} output`).toEqual(normalize(tool.output, 'output'));
        expect(lowered.tools[i]!.headers ?? [], `${tool.name} headers`).toEqual(tool.headers ?? []);
      });
      // The published list is the compiler's, member for member, less what the catalog does not carry.
      expect(JSON.parse(lowered.list)).toEqual(JSON.parse(compiled.manifest.list));
    });
  }
});
