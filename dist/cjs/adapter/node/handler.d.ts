import { type McpHttpOptions } from '../../options';
import { type McpNodeHandler } from './listener';
export type { McpNodeHandler } from './listener';
export declare function createMcpNodeHandler(options?: McpHttpOptions): McpNodeHandler;
