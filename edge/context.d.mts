// Types of the deployed service's declarations (edge/context.mjs), for the TypeScript that imports it.
import type { EntityRouter, McpBinding } from '../src/pulse';

export const tools: EntityRouter;
export const serverInfo: { readonly name: string; readonly version: string };
export const server: McpBinding;
