"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.corpusIndexes = corpusIndexes;
/**
 * Corpus indexes, built by the core (`native/core/src/corpus_index.rs`): entries are indexed by the
 * same tokenizer that reads queries, and the idf is computed there once, at build time.
 */
const engine_1 = require("../core/engine");
const errors_1 = require("./errors");
/** Indexes definitions on one core instance of `core` (the package's own by default). */
function corpusIndexes(core) {
    const build = (0, engine_1.corpusIndexer)(core);
    return (def, where) => {
        let json;
        try {
            json = JSON.stringify(def);
        }
        catch {
            (0, errors_1.fail)(`${where}: corpus must be plain JSON data`);
        }
        const r = build(json);
        if (!r.ok)
            (0, errors_1.fail)(`${where}: ${r.message}`);
        return r.index;
    };
}
