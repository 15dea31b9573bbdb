/**
 * Handler options per corpus profile, shared by every target: the Node host, the Fetch handler in
 * workerd and the Native build (whose embedded configuration comes from the same options through
 * the hosts' own validation). `example` is the deployed edge service (edge/router.ts).
 */
import { PROFILES } from '../../test/support/fixtures';
import { toolSource } from '../../src/router';
import * as edge from '../../edge/router';
import * as backend from './backend-router';
import * as surface from './surface-router';
import * as catalog from './catalog-router';
import * as authz from './authz-profile';

export type ProfileOptions = Record<string, unknown>;

export function profileOptions(): Record<string, ProfileOptions> {
  return {
    ...(PROFILES as unknown as Record<string, ProfileOptions>),
    example: { ...edge.options, tools: toolSource(edge.router) },
    backend: { ...backend.options, tools: toolSource(backend.router) },
    surface: { ...surface.options, tools: toolSource(surface.router) },
    catalog: catalog.options as unknown as ProfileOptions,
    authz: authz.options as unknown as ProfileOptions,
  };
}
