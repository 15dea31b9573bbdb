/**
 * Handler options per corpus profile of the host adapters, shared by every target: the Node host,
 * the Fetch handler in workerd and the Native build (whose embedded configuration comes from the
 * same options through the hosts' own validation). The profiles served by the static binding
 * (mcp(), the deployed service among them) are in ./static-profiles.ts.
 */
import { PROFILES } from '../../test/support/fixtures';
import * as catalog from './catalog-router';
import * as authz from './authz-profile';

export type ProfileOptions = Record<string, unknown>;

export function profileOptions(): Record<string, ProfileOptions> {
  return {
    ...(PROFILES as unknown as Record<string, ProfileOptions>),
    catalog: catalog.options as unknown as ProfileOptions,
    authz: authz.options as unknown as ProfileOptions,
  };
}
