export const LEGACY_PROTOCOL: '2025-06-18';
export const EDGE_MODULE: string;
export function checkWasm(path: string): { bytes: number; importModules: string[] };
