export interface OriginAuthz {
  client: { id: string; secret: string };
  issuer: string;
  resource: string;
  tokens: Readonly<Record<string, string>>;
}
export function startOrigin(port: number, backendToken: string, authz: OriginAuthz): Promise<{ port: number; close(): Promise<void> }>;
