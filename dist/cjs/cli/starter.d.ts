/**
 * The files `pulse-mcp init` writes: a minimal project serving one static tool and one corpus tool
 * with the static binding, on Node (`npm start`) and on Fastly Compute (the Fastly CLI runs
 * `npm run build`, which writes the Native binary). Kept as text here so the compiled package
 * carries them.
 */
export interface StarterVersions {
    /** This package's version: the starter depends on exactly the package that wrote it. */
    readonly pulse: string;
    /** `@bytecodealliance/wizer`, which the Native build runs. */
    readonly wizer: string;
    /** `typescript`, which the Native build parses the service module with. */
    readonly typescript: string;
}
/** The service module, its Node entry and the Native binary it builds to. */
export declare const SERVICE_MODULE = "service.mjs";
export declare const NODE_ENTRY = "serve.mjs";
export declare const WASM_OUT = "bin/main.wasm";
export declare function packageJson(name: string, v: StarterVersions): string;
export declare function serviceModule(name: string): string;
export declare const NODE_SERVER = "// npm start: the service on Node at http://127.0.0.1:3000/mcp. HOST (a loopback address: the\n// server has no authentication) and PORT override; PORT=0 takes a free port.\nimport http from 'node:http';\nimport { isIP } from 'node:net';\nimport { server, serverInfo } from './service.mjs';\n\nconst host = process.env.HOST || '127.0.0.1';\nconst port = process.env.PORT || '3000';\nif (!(host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.')))) {\n  process.stderr.write(`serve.mjs: HOST=${host} is not a loopback address (127.0.0.1, ::1, localhost); put a proxy with authentication in front to serve others\\n`);\n  process.exit(1);\n}\nif (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) {\n  process.stderr.write(`serve.mjs: PORT=${port} is not a port number (0 to 65535)\\n`);\n  process.exit(1);\n}\n\nconst listener = http.createServer(server.nodeListener());\nlistener.once('error', (e) => {\n  process.stderr.write(`serve.mjs: cannot listen on ${host}:${port}: ${e.code ?? e.message}\\n`);\n  process.exit(1);\n});\nlistener.listen(Number(port), host, () => {\n  const { address, port: bound } = listener.address();\n  const shown = address.includes(':') ? `[${address}]` : address;\n  process.stdout.write(`${serverInfo.name} listening on http://${shown}:${bound}/mcp\\n`);\n});\nfor (const signal of ['SIGINT', 'SIGTERM']) {\n  process.once(signal, () => {\n    listener.close(() => process.exit(0));\n    listener.closeAllConnections();\n  });\n}\n";
export declare function fastlyToml(name: string): string;
export declare function readme(name: string): string;
export declare const GITIGNORE = "node_modules/\nbin/\npkg/\n";
/** The starter's files, by path, in the order they are listed. */
export declare function starterFiles(name: string, versions: StarterVersions): Record<string, string>;
