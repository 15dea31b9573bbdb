"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.npmName = npmName;
exports.initCommand = initCommand;
/**
 * `pulse-mcp init [dir]`: writes the starter project (./starter) into an empty or absent directory,
 * pinned to this package's version and to the versions its build runs with.
 */
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const native_service_1 = require("./native-service");
const package_1 = require("./package");
const starter_1 = require("./starter");
const usage_1 = require("./usage");
/** npm's longest name is 214 characters; serverInfo.name, which the starter uses it for, takes 128. */
const NAME_MAX = 128;
/** Names npm refuses whatever their characters. */
const NPM_RESERVED = ['node_modules', 'favicon.ico'];
const FALLBACK_NAME = 'mcp-service';
/** A valid npm package name from a directory's name: lower case, URL-safe, not starting with . or _. */
function npmName(dirName) {
    const name = dirName
        .toLowerCase()
        .replace(/[^a-z0-9._~-]+/g, '-')
        .replace(/^[._~-]+/, '')
        .slice(0, NAME_MAX)
        .replace(/-+$/, '');
    return name === '' || NPM_RESERVED.includes(name) ? FALLBACK_NAME : name;
}
/**
 * The TypeScript version this package builds with, from its own package.json (which the published
 * package keeps with its devDependencies): the starter parses its service with the same compiler.
 */
function pinnedTypeScript() {
    const manifest = (0, node_path_1.join)((0, package_1.packageRoot)(), 'package.json');
    const v = JSON.parse((0, node_fs_1.readFileSync)(manifest, 'utf8')).devDependencies?.typescript;
    if (typeof v !== 'string' || !/^[0-9]+\.[0-9]+\.[0-9]+$/.test(v))
        throw new usage_1.CommandError(`${manifest} pins no exact typescript version in devDependencies; reinstall @pulse-compute/mcp`);
    return v;
}
/** Refuses a target that exists and is not an empty directory. */
function checkTarget(path, shown) {
    let entries;
    try {
        if (!(0, node_fs_1.statSync)(path).isDirectory())
            throw new usage_1.CommandError(`${shown} exists and is not a directory; pulse-mcp init writes a new project into an empty or absent directory`);
        entries = (0, node_fs_1.readdirSync)(path);
    }
    catch (e) {
        if (e.code === 'ENOENT')
            return;
        if (e instanceof usage_1.CommandError)
            throw e;
        throw new usage_1.CommandError(`${shown} cannot be read: ${e.code ?? e.message}`);
    }
    if (entries.length > 0) {
        throw new usage_1.CommandError(`${shown} is not empty (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}); pulse-mcp init writes a new project into an empty or absent directory`);
    }
}
/** A path as a shell command line takes it. */
function shellWord(s) {
    return /^[A-Za-z0-9_./~@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}
async function initCommand(args) {
    let dir;
    for (const arg of args) {
        if (arg.startsWith('-'))
            throw new usage_1.UsageError(`unknown option ${arg}`);
        if (dir !== undefined)
            throw new usage_1.UsageError(`unexpected argument ${arg}: init takes one directory`);
        dir = arg;
    }
    const shown = dir ?? '.';
    const target = (0, node_path_1.resolve)(shown);
    checkTarget(target, shown);
    const name = npmName((0, node_path_1.basename)(target));
    const files = (0, starter_1.starterFiles)(name, { pulse: (0, package_1.packageVersion)(), wizer: native_service_1.WIZER_VERSION, typescript: pinnedTypeScript() });
    (0, node_fs_1.mkdirSync)(target, { recursive: true });
    // 'wx': a file that appeared since the check is never overwritten.
    for (const [file, text] of Object.entries(files))
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(target, file), text, { flag: 'wx' });
    const cd = dir === undefined ? [] : [`cd ${shellWord(dir)}`];
    process.stdout.write([
        `wrote the project ${name} in ${shown}: ${Object.keys(files).join(', ')}`,
        '',
        'next:',
        ...[
            ...cd,
            'npm install',
            `npm start              # ${starter_1.NODE_ENTRY}: http://127.0.0.1:3000/mcp`,
            `fastly compute serve   # npm run build (${starter_1.WASM_OUT}), then Viceroy: http://127.0.0.1:7676/mcp`,
            'fastly compute publish # deploys it (a Fastly account)',
        ].map((l) => `  ${l}`),
        '',
    ].join('\n'));
}
