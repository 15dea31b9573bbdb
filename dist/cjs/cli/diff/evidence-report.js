"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evidenceOf = evidenceOf;
exports.count = count;
exports.evidenceReport = evidenceReport;
/**
 * The differential run's evidence report: per router it served and per operation, how many of the
 * run's `tools/call` cases naming it each target answered alike with the reference (node-javascript;
 * for the reference itself, that it answered). The format is the one `pulse-mcp build --evidence`
 * reads (../../compiler/evidence); `pulse-mcp diff` and the repository's own run both write it here.
 */
const evidence_1 = require("../../compiler/evidence");
/** Every router the run serves, each operation at zero cases; two builds of one router id cannot be told apart. */
function evidenceOf(served) {
    const out = new Map();
    for (const s of served.values()) {
        const known = out.get(s.routerId);
        if (known !== undefined && known.catalogHash !== s.catalogHash)
            throw new Error(`diff: two profiles serve router ${s.routerId} with different catalogs; give one of them another router id`);
        const operations = known?.operations ?? new Map();
        for (const name of s.operations)
            if (!operations.has(name))
                operations.set(name, new Map());
        out.set(s.routerId, { catalogHash: s.catalogHash, operations });
    }
    return out;
}
function count(evidence, call, target) {
    const counts = evidence.get(call.routerId).operations.get(call.name);
    counts.set(target, (counts.get(target) ?? 0) + 1);
}
/** The report, routers and targets sorted; `date` is the run's start. */
function evidenceReport(date, evidence) {
    const byName = (a, b) => (a[0] < b[0] ? -1 : 1);
    const routers = {};
    for (const [id, r] of [...evidence].sort(byName)) {
        const operations = {};
        for (const [name, counts] of r.operations)
            operations[name] = Object.fromEntries([...counts].sort(byName));
        routers[id] = { catalogHash: r.catalogHash, operations };
    }
    return { formatVersion: evidence_1.EVIDENCE_FORMAT_VERSION, kind: evidence_1.EVIDENCE_KIND, date, routers };
}
