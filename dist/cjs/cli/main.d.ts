export declare function main(argv: readonly string[]): Promise<number>;
