export function cargoEdge(configPath: string, targetDir?: string): string;
export function preinitialize(raw: string, out: string): void;
export function optimize(raw: string, out: string): void;
export function checkWasm(path: string): { bytes: number; importModules: string[]; imports: number };
export function buildNative(configJson: string, outWasm: string, targetDir?: string): { bytes: number; importModules: string[]; imports: number };
export function backendNames(configJson: string): string[];
export const LEGACY_PROTOCOL: '2025-06-18';
export const EDGE_MODULE: string;
