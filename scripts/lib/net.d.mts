export function waitForPort(port: number, timeoutMs: number, exited?: Promise<unknown>): Promise<void>;
