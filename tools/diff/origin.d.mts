export function startOrigin(port: number, backendToken: string): Promise<{ port: number; close(): Promise<void> }>;
