export declare function diffCommand(args: readonly string[]): Promise<void>;
