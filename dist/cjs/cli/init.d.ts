/** A valid npm package name from a directory's name: lower case, URL-safe, not starting with . or _. */
export declare function npmName(dirName: string): string;
export declare function initCommand(args: readonly string[]): Promise<void>;
