/** The static entity router, its codecs and its bindings. */
export { EntityRouter, DEFAULT_BUDGETS, MAX_OPERATIONS, type OperationOptions, type RouterOptions, type InputOf, type OutputOf, type JavaScriptHandler } from './router';
export { codec, type Codec, type Infer, type JsonValue, type OptionalField, type Scalar } from './codecs';
export { PulseRouterError, isPulseRouterError } from './errors';
export { toolSource, assertNativeEligible, mcp, STATIC_LIMITS, type McpBinding, type McpBindingOptions, type PulseRequestContext, type RouterToolSource, type ToolSourceOptions, } from './bind';
export type { CodecDescriptor, FieldDescriptor } from './codec-types';
export type { Budgets, CorpusDefinition, CorpusEntry, RouterDefinition, ToolHints } from './definition';
export { jsonRpc, type JsonRpcBinding, type JsonRpcOptions } from './jsonrpc';
