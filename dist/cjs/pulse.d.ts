/**
 * @pulse-compute/mcp/pulse: declare a module-level router of schema-typed operations and bind it
 * statically, `const server = mcp({ router, serverInfo })`: `server.handle(ctx)` on Fetch runtimes,
 * `http.createServer(server.nodeListener())` on Node. The core decodes inputs, encodes outputs and
 * frames every reply; JavaScript handlers get a request-owned context and nothing else.
 */
export { EntityRouter, codec, assertNativeEligible, mcp, jsonRpc, DEFAULT_BUDGETS, STATIC_LIMITS, } from './router';
export { REQUEST_CHANNEL } from './telemetry/channel';
export type { McpRequestEvent } from './telemetry/channel';
export type { Codec, Infer, JsonValue, Scalar, OptionalField, OperationOptions, RouterOptions, InputOf, OutputOf, JavaScriptHandler, McpBinding, McpBindingOptions, JsonRpcBinding, JsonRpcOptions, PulseRequestContext, CodecDescriptor, FieldDescriptor, Budgets, CorpusDefinition, CorpusEntry, RouterDefinition, ToolHints, } from './router';
export { PulseError, PulseConfigError, PulseCoreError } from './errors';
export type { PulseErrorCode } from './errors';
export { PulseRouterError, isPulseRouterError } from './router/errors';
export { ManifestError } from './compiler/errors';
export { handlers, createMemoryKv } from './handlers';
export type { HandlerContext, ContextFetchInit, ContextOptions, KvStore, LogRecord, LogSink, Logger, SignalLike } from './handlers';
export type { McpNodeHandler } from './adapter/node/listener';
