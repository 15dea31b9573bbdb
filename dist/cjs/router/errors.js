"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PulseRouterError = void 0;
exports.fail = fail;
exports.isPulseRouterError = isPulseRouterError;
/**
 * Typed errors of the router, the codec builders and the handler context. Each carries a stable code
 * and a fixed message chosen from the table below, so no error ever echoes user input, a secret, a URL
 * or the text of another exception.
 */
const errors_1 = require("../errors");
const rules_1 = require("./rules");
const MESSAGES = {
    // declarations
    routerId: `Router id must be ${rules_1.NAME_RULE}`,
    routerOptions: 'Router options must be a plain object with known keys only',
    operationName: `Operation name must be ${rules_1.NAME_RULE}`,
    operationDuplicate: 'Operation name is already declared on this router',
    operationOptions: 'Operation options must be a plain object with known keys only',
    operationTitle: 'Operation title (at most 256 characters) and description (at most 4096) must be strings',
    operationHints: 'Operation hints must be an object of the four boolean MCP hints',
    operationInput: 'Operation input must be an object codec',
    operationOutput: 'Operation output must be a codec',
    operationContent: 'Operation content must be a boolean, and a content operation declares no output',
    operationInputs: 'Operation inputs must be a list of rounds, each an object of input requests',
    operationHeaderParams: 'Operation headerParams must map input fields to header names (strings)',
    operationAuthenticated: 'Operation authenticated must be a boolean',
    operationCount: 'A router declares at most 128 operations',
    handler: 'Operation handler must be a function or a handler from handlers.*',
    handlerCorpus: 'Corpus handler names a corpus the router does not declare',
    handlerBackend: 'Backend handler names a backend the router does not declare',
    handlerStatic: `Static handler result must be ${rules_1.STATIC_RESULT_RULE}`,
    handlerCorpusOptions: `Corpus handler options are invalid (corpus, action search|read|list, topK ${rules_1.TOP_K.min}-${rules_1.TOP_K.max}, maxBytes ${rules_1.HANDLER_BYTES.min}-${rules_1.HANDLER_BYTES.max})`,
    handlerBackendOptions: `Backend handler options are invalid (backend, method, absolute path, maxBytes ${rules_1.HANDLER_BYTES.min}-${rules_1.HANDLER_BYTES.max}, timeoutMs ${rules_1.BACKEND_TIMEOUT_MS.min}-${rules_1.BACKEND_TIMEOUT_MS.max} and within the router deadline)`,
    backends: 'Backends must map names to https URLs or loopback http URLs without credentials, query or fragment',
    config: 'Config must map names to strings (at most 4096 characters), finite numbers or booleans',
    budgets: 'Budgets must be positive integers no greater than the defaults',
    corpora: 'Corpora must be bounded versioned entry lists with unique ids',
    // codecs
    codecBounds: 'Codec bounds must be integers with min <= max inside the kind\'s range',
    codecLength: 'String lengths must be non-negative integers with minLength <= maxLength',
    codecNumber: 'Number bounds must be finite with min <= max',
    codecEnum: 'Enum values must be 1-256 unique strings of at most 128 characters',
    codecArray: 'Array codecs need an item codec and maxItems, a positive integer up to 65536',
    codecObject: 'Object codecs need fields mapping 1-128 character names to codecs (at most 256 fields)',
    codecInner: 'Expected a codec built by codec.*',
    codecJson: 'JSON codecs need maxBytes 1-1048576 and maxDepth 1-32',
    codecRecord: 'Scalar records need maxKeys 1-1024 and maxBytes 1-1048576',
    codecOptions: 'Codec options must be a plain object with known keys only',
    codecStrict: 'An object codec is either open or strict, not both',
    codecRequireAnyOf: 'requireAnyOf needs 1-16 groups, each a non-empty list of distinct declared field names',
    codecWhen: 'when needs a declared field, equals (a string, finite number or boolean), and then/else lists of distinct declared field names, not both empty',
    codecRef: 'codec.ref needs a name of 1-64 characters of A-Za-z0-9_.-, a codec built by codec.*, and optionally an anchor of 1-64 characters matching [A-Za-z_][A-Za-z0-9_.-]*',
    // binding
    frozen: 'The router is bound; no operations can be declared after binding',
    nativeIneligible: 'The router has JavaScript handlers, which run in JavaScript hosts only; the Native target admits static, corpus and backend handlers only',
    notRouter: 'Expected a router declared with new EntityRouter(id)',
    handleContext: 'handle(ctx) needs the Pulse request context with ctx.request',
    toolSourceOptions: 'Tool source options are invalid (secrets, kv, log, core)',
    jsonRpcOptions: 'jsonRpc options are invalid (path, limits, secrets, kv, log, core)',
    // context
    fetchDenied: 'Fetch destination is not a declared backend origin',
    fetchInvalid: 'Fetch arguments are invalid',
    fetchFailed: 'Fetch failed',
    fetchRedirect: 'Fetch received a redirect; redirects are not followed',
    fetchUnavailable: 'Fetch is not available in this host',
    budgetFetches: 'Fetch budget exhausted',
    budgetBytes: 'Fetch byte budget exhausted',
    budgetCalls: 'Call budget exhausted',
    budgetDepth: 'Call depth budget exhausted',
    deadline: 'Deadline exceeded',
    closed: 'The request context has ended',
    callUnknown: 'Called operation is not declared on this router',
    callUnsupported: 'Called operation kind cannot run from ctx.call',
    callFailed: 'Called operation failed',
    secretName: `Secret name must be ${rules_1.NAME_RULE}`,
    secretFailed: 'Secret lookup failed',
    kvKey: 'KV keys must be 1-512 characters',
    kvValue: 'KV values must be strings of at most 65536 characters',
    kvFull: 'KV store is full',
    kvFailed: 'KV operation failed',
};
class PulseRouterError extends errors_1.PulseError {
    code;
    constructor(code, message) {
        super(MESSAGES[message]);
        this.name = 'PulseRouterError';
        this.code = code;
    }
}
exports.PulseRouterError = PulseRouterError;
function fail(code, message) {
    throw new PulseRouterError(code, message);
}
function isPulseRouterError(e) {
    return e instanceof PulseRouterError;
}
