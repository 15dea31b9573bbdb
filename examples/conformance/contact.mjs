// The input of the conformance fixture `json_schema_2020_12_tool`: a contact form using the JSON
// Schema 2020-12 vocabulary the core enforces, a named definition (`$defs` with `$anchor`), a
// strict object (`additionalProperties: false`), alternative groups (`allOf`/`anyOf`) and a
// conditional requirement (`if`/`then`/`else`). Built with the `codec` it is given, so the example
// (the package) and the projection test (the sources) declare it once.
export function contactForm(codec) {
  const address = codec.ref('address', codec.object({ street: codec.optional(codec.string()), city: codec.optional(codec.string()) }), {
    anchor: 'addressDef',
  });
  return codec.object(
    {
      name: codec.optional(codec.string()),
      address: codec.optional(address),
      contactMethod: codec.optional(codec.enum(['phone', 'email'])),
      phone: codec.optional(codec.string()),
      email: codec.optional(codec.string()),
    },
    {
      strict: true,
      requireAnyOf: [['phone'], ['email']],
      when: { field: 'contactMethod', equals: 'phone', then: ['phone'], else: ['email'] },
    },
  );
}
