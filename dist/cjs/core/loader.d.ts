import type { McpCoreSource } from '../options';
import { type CoreExports } from './exports';
/** A fresh, independent core instance (own linear memory). */
export declare function instantiateCore(source?: McpCoreSource): CoreExports;
