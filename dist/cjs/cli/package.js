"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PACKAGE_NAME = void 0;
exports.packageRoot = packageRoot;
exports.packageVersion = packageVersion;
/** This package as the command line finds it: its root and version, from the built package and the checkout alike. */
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
exports.PACKAGE_NAME = '@pulse-compute/mcp';
let found;
/** The nearest directory above this file whose package.json is this package's (dist/cjs/cli or src/cli below it). */
function own() {
    if (found !== undefined)
        return found;
    for (let dir = __dirname, i = 0; i < 5; dir = (0, node_path_1.dirname)(dir), i++) {
        try {
            const pkg = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, 'package.json'), 'utf8'));
            if (pkg.name === exports.PACKAGE_NAME && typeof pkg.version === 'string')
                return (found = { root: dir, version: pkg.version });
        }
        catch {
            // no package.json at this level
        }
    }
    throw new Error(`pulse-mcp: cannot find the ${exports.PACKAGE_NAME} package this command belongs to`);
}
function packageRoot() {
    return own().root;
}
function packageVersion() {
    return own().version;
}
