/** The C ABI of pulse-core as JavaScript sees it (docs/contracts.md#the-c-abi). All integers are u32. */
export interface CoreMemory {
    readonly buffer: ArrayBuffer;
}
export interface CoreExports {
    readonly memory: CoreMemory;
    pulse_alloc(len: number): number;
    pulse_dealloc(ptr: number, len: number): void;
    pulse_engine_new(ptr: number, len: number): number;
    pulse_engine_error_ptr(): number;
    pulse_engine_error_len(): number;
    pulse_engine_free(engine: number): void;
    pulse_request_new(engine: number, now: number, epochMs: number): number;
    pulse_request_head(req: number, ptr: number, len: number, now: number): number;
    pulse_request_body(req: number, ptr: number, len: number, now: number): number;
    pulse_request_end(req: number, now: number): number;
    pulse_request_abort(req: number, now: number): number;
    pulse_request_tick(req: number, now: number): number;
    pulse_request_http_response(req: number, status: number, ptr: number, len: number, now: number): number;
    pulse_request_http_failure(req: number, reason: number, now: number): number;
    pulse_request_handler_output(req: number, ptr: number, len: number, now: number): number;
    pulse_request_handler_failure(req: number, now: number): number;
    pulse_request_progress(req: number, progress: number, total: number, msgPtr: number, msgLen: number, now: number): number;
    pulse_request_timeout_ms(req: number, now: number): number;
    pulse_request_event(req: number): number;
    pulse_request_cached(req: number, ptr: number, len: number, now: number): number;
    pulse_request_cache_entry(req: number): number;
    pulse_request_rate(req: number, kind: number, count: number, now: number): number;
    pulse_output_ptr(req: number): number;
    pulse_output_len(req: number): number;
    pulse_request_free(req: number): void;
    pulse_engine_check(engine: number, opPtr: number, opLen: number, direction: number, ptr: number, len: number): number;
    pulse_engine_fault(engine: number, fault: number): number;
    pulse_engine_fault_event(engine: number, fault: number): number;
    pulse_engine_service_names(engine: number): number;
    pulse_check_output_ptr(): number;
    pulse_check_output_len(): number;
    pulse_defaults_ptr(): number;
    pulse_defaults_len(): number;
    pulse_corpus_index(ptr: number, len: number): number;
}
export declare const CORE_FUNCTIONS: readonly (keyof CoreExports)[];
