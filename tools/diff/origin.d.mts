/** A token's grant: its scopes (the `sub` is 'diff-user'), or its scopes and its own `sub`. */
export type OriginGrant = string | { readonly scope: string; readonly sub: string };
export interface OriginAuthz {
  client: { id: string; secret: string };
  issuer: string;
  resource: string;
  tokens: Readonly<Record<string, OriginGrant>>;
}
export function startOrigin(
  port: number,
  backendToken: string,
  authz: OriginAuthz,
): Promise<{ port: number; introspections(token: string): number; close(): Promise<void> }>;
