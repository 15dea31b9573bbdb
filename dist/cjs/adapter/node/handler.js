"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createMcpNodeHandler = createMcpNodeHandler;
/**
 * The `/node` adapter: an `http.createServer` request listener in front of catalog artifacts (the
 * host facade). It projects the catalog and runs no application code.
 */
const node_http_1 = __importDefault(require("node:http"));
const options_1 = require("../../options");
const listener_1 = require("./listener");
function createMcpNodeHandler(options) {
    return (0, listener_1.createNodeListener)((0, options_1.resolveOptions)(options), (0, listener_1.nodeModules)(node_http_1.default, () => process.getBuiltinModule('node:https')));
}
