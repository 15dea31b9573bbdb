/**
 * OpenTelemetry spans of the request events, following the MCP semantic conventions (server spans):
 * subscribes to {@link REQUEST_CHANNEL} and turns each event into one finished span. This module
 * alone imports `@opentelemetry/api` (an optional peer dependency), through its own entry
 * `@pulse-compute/mcp/otel`: the other entries never load it.
 */
import { type TracerProvider } from '@opentelemetry/api';
export interface InstrumentOptions {
    /** Where spans go; the globally registered provider when absent. */
    readonly tracerProvider?: TracerProvider;
}
/**
 * Starts turning request events into spans; returns the function that stops it. Throws where the
 * runtime has no `diagnostics_channel` (nothing would ever be published there).
 */
export declare function instrument(options?: InstrumentOptions): () => void;
