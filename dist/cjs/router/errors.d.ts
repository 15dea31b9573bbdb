/**
 * Typed errors of the router, the codec builders and the handler context. Each carries a stable code
 * and a fixed message chosen from the table below, so no error ever echoes user input, a secret, a URL
 * or the text of another exception.
 */
import { PulseError, type PulseRouterErrorCode } from '../errors';
declare const MESSAGES: {
    readonly routerId: "Router id must be 1-128 characters of A-Za-z0-9_.-";
    readonly routerOptions: "Router options must be a plain object with known keys only";
    readonly operationName: "Operation name must be 1-128 characters of A-Za-z0-9_.-";
    readonly operationDuplicate: "Operation name is already declared on this router";
    readonly operationOptions: "Operation options must be a plain object with known keys only";
    readonly operationTitle: "Operation title (at most 256 characters) and description (at most 4096) must be strings";
    readonly operationHints: "Operation hints must be an object of the four boolean MCP hints";
    readonly operationInput: "Operation input must be an object codec";
    readonly operationOutput: "Operation output must be a codec";
    readonly operationContent: "Operation content must be a boolean, and a content operation declares no output";
    readonly operationInputs: "Operation inputs must be a list of rounds, each an object of input requests";
    readonly operationHeaderParams: "Operation headerParams must map input fields to header names (strings)";
    readonly operationAuthenticated: "Operation authenticated must be a boolean";
    readonly operationCount: "A router declares at most 128 operations";
    readonly handler: "Operation handler must be a function or a handler from handlers.*";
    readonly handlerCorpus: "Corpus handler names a corpus the router does not declare";
    readonly handlerBackend: "Backend handler names a backend the router does not declare";
    readonly handlerStatic: "Static handler result must be plain JSON of at most 32 levels and 65536 bytes";
    readonly handlerCorpusOptions: `Corpus handler options are invalid (corpus, action search|read|list, topK ${number}-${number}, maxBytes ${number}-${number})`;
    readonly handlerBackendOptions: `Backend handler options are invalid (backend, method, absolute path, maxBytes ${number}-${number}, timeoutMs ${number}-${number} and within the router deadline)`;
    readonly backends: "Backends must map names to https URLs or loopback http URLs without credentials, query or fragment";
    readonly config: "Config must map names to strings (at most 4096 characters), finite numbers or booleans";
    readonly budgets: "Budgets must be positive integers no greater than the defaults";
    readonly corpora: "Corpora must be bounded versioned entry lists with unique ids";
    readonly codecBounds: "Codec bounds must be integers with min <= max inside the kind's range";
    readonly codecLength: "String lengths must be non-negative integers with minLength <= maxLength";
    readonly codecNumber: "Number bounds must be finite with min <= max";
    readonly codecEnum: "Enum values must be 1-256 unique strings of at most 128 characters";
    readonly codecArray: "Array codecs need an item codec and maxItems, a positive integer up to 65536";
    readonly codecObject: "Object codecs need fields mapping 1-128 character names to codecs (at most 256 fields)";
    readonly codecInner: "Expected a codec built by codec.*";
    readonly codecJson: "JSON codecs need maxBytes 1-1048576 and maxDepth 1-32";
    readonly codecRecord: "Scalar records need maxKeys 1-1024 and maxBytes 1-1048576";
    readonly codecOptions: "Codec options must be a plain object with known keys only";
    readonly codecStrict: "An object codec is either open or strict, not both";
    readonly codecRequireAnyOf: "requireAnyOf needs 1-16 groups, each a non-empty list of distinct declared field names";
    readonly codecWhen: "when needs a declared field, equals (a string, finite number or boolean), and then/else lists of distinct declared field names, not both empty";
    readonly codecRef: "codec.ref needs a name of 1-64 characters of A-Za-z0-9_.-, a codec built by codec.*, and optionally an anchor of 1-64 characters matching [A-Za-z_][A-Za-z0-9_.-]*";
    readonly frozen: "The router is bound; no operations can be declared after binding";
    readonly nativeIneligible: "The router has JavaScript handlers, which run in JavaScript hosts only; the Native target admits static, corpus and backend handlers only";
    readonly notRouter: "Expected a router declared with new EntityRouter(id)";
    readonly handleContext: "handle(ctx) needs the Pulse request context with ctx.request";
    readonly toolSourceOptions: "Tool source options are invalid (secrets, kv, log, core)";
    readonly jsonRpcOptions: "jsonRpc options are invalid (path, limits, secrets, kv, log, core)";
    readonly fetchDenied: "Fetch destination is not a declared backend origin";
    readonly fetchInvalid: "Fetch arguments are invalid";
    readonly fetchFailed: "Fetch failed";
    readonly fetchRedirect: "Fetch received a redirect; redirects are not followed";
    readonly fetchUnavailable: "Fetch is not available in this host";
    readonly budgetFetches: "Fetch budget exhausted";
    readonly budgetBytes: "Fetch byte budget exhausted";
    readonly budgetCalls: "Call budget exhausted";
    readonly budgetDepth: "Call depth budget exhausted";
    readonly deadline: "Deadline exceeded";
    readonly closed: "The request context has ended";
    readonly callUnknown: "Called operation is not declared on this router";
    readonly callUnsupported: "Called operation kind cannot run from ctx.call";
    readonly callFailed: "Called operation failed";
    readonly secretName: "Secret name must be 1-128 characters of A-Za-z0-9_.-";
    readonly secretFailed: "Secret lookup failed";
    readonly kvKey: "KV keys must be 1-512 characters";
    readonly kvValue: "KV values must be strings of at most 65536 characters";
    readonly kvFull: "KV store is full";
    readonly kvFailed: "KV operation failed";
};
export type PulseErrorMessage = keyof typeof MESSAGES;
export declare class PulseRouterError extends PulseError {
    readonly code: PulseRouterErrorCode;
    constructor(code: PulseRouterErrorCode, message: PulseErrorMessage);
}
export declare function fail(code: PulseRouterErrorCode, message: PulseErrorMessage): never;
export declare function isPulseRouterError(e: unknown): e is PulseRouterError;
export {};
