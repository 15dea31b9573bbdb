export function startOrigin(port: number): Promise<{ port: number; close(): Promise<void> }>;
