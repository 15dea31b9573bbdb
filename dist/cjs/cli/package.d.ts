export declare const PACKAGE_NAME = "@pulse-compute/mcp";
export declare function packageRoot(): string;
export declare function packageVersion(): string;
