import type { HttpExchange } from '../../core/driver';
import type { NodeModules } from './listener';
/** An exchange with its own keep-alive agents (their idle sockets never keep the process alive). */
export declare function nodeExchange(node: NodeModules): HttpExchange;
