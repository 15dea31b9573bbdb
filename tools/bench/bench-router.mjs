// The bench's router: two trivial tools with the same input and result, `echo` (a static result,
// answered inside the core) and `echo_js` (a JavaScript handler echoing its input, one round trip
// through the host). `pulse` is the package's `pulse.js` module of the build under test.
export function benchRouter(pulse) {
  const { EntityRouter, codec, handlers } = pulse;
  const input = codec.object({ text: codec.string({ maxLength: 64 }) });
  const output = codec.object({ text: codec.string() });
  return new EntityRouter('bench')
    .operation('echo', { description: 'Echo', input, output, handler: handlers.static({ text: 'hello' }) })
    .operation('echo_js', { description: 'Echo', input, output, handler: (_ctx, { text }) => ({ text }) });
}
