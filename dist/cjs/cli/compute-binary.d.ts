/** The modules `bytes` imports, sorted; `producer` names what wrote it in a refusal. */
export declare function computeImports(bytes: Uint8Array, producer: string): Promise<string[]>;
