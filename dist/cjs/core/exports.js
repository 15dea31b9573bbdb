"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CORE_FUNCTIONS = void 0;
exports.CORE_FUNCTIONS = [
    'pulse_alloc', 'pulse_dealloc', 'pulse_engine_new', 'pulse_engine_error_ptr', 'pulse_engine_error_len',
    'pulse_engine_free', 'pulse_request_new', 'pulse_request_head', 'pulse_request_body', 'pulse_request_end',
    'pulse_request_abort', 'pulse_request_tick', 'pulse_request_http_response', 'pulse_request_http_failure',
    'pulse_request_handler_output', 'pulse_request_handler_failure', 'pulse_request_progress', 'pulse_request_timeout_ms', 'pulse_request_event',
    'pulse_request_cached', 'pulse_request_cache_entry', 'pulse_request_rate',
    'pulse_output_ptr', 'pulse_output_len', 'pulse_request_free', 'pulse_engine_check', 'pulse_engine_fault', 'pulse_engine_fault_event', 'pulse_engine_service_names', 'pulse_check_output_ptr',
    'pulse_check_output_len', 'pulse_defaults_ptr', 'pulse_defaults_len', 'pulse_corpus_index',
];
