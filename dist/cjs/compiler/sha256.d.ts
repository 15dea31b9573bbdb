export declare function sha256(data: Uint8Array): Uint8Array;
export declare function sha256Hex(text: string): string;
