/** Handler builders (native kinds) and the request-owned context of JavaScript handlers. */
export { handlers, isNativeHandler, type NativeHandler } from './helpers';
export { createHandlerRunner, createMemoryKv, MAX_CALL_DEPTH, KV_OPS_PER_REQUEST, LOG_RECORDS_PER_REQUEST, type ContextFetchInit, type ContextOptions, type HandlerContext, type HandlerOutcome, type HandlerRunner, type KvStore, type LogRecord, type LogSink, type Logger, type SignalLike, } from './context';
