/**
 * The static-binding fixtures of the differential run: each router with the options of its mcp()
 * binding. One list for every target: the Node listener and the Native builds
 * (./static-profiles.ts), and `handle(ctx)` inside workerd (./workerd-entry.ts), which cannot import
 * the deployed module (it binds at module level, without the precompiled core workerd needs).
 */
import type { EntityRouter } from '../../src/pulse';
import * as backend from './backend-router';
import * as surface from './surface-router';
import * as fixture from './static-router';

export const STATIC_BINDINGS: Readonly<Record<string, { readonly router: EntityRouter; readonly options: Record<string, unknown> }>> = {
  backend: { router: backend.router, options: backend.options },
  surface: { router: surface.router, options: surface.options },
  static: { router: fixture.router, options: fixture.binding },
};
