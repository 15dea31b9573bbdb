"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMPARED = exports.REFERENCE = void 0;
exports.answerOf = answerOf;
exports.differingFields = differingFields;
exports.compareTargets = compareTargets;
exports.formatAnswer = formatAnswer;
exports.caseLines = caseLines;
const http_1 = require("./http");
exports.REFERENCE = 'node-javascript';
exports.COMPARED = ['status', 'content-type', 'cache-control', 'allow', 'www-authenticate', 'body'];
function answerOf(res, sealedRequestState) {
    if (res === null)
        return null;
    const body = res.body.toString('latin1');
    return {
        status: String(res.status),
        'content-type': res.headers['content-type'] ?? '',
        'cache-control': res.headers['cache-control'] ?? '',
        allow: res.headers['allow'] ?? '',
        'www-authenticate': res.headers['www-authenticate'] ?? '',
        body: sealedRequestState ? body.replace(/"requestState":"[^"]*"/g, '"requestState":"(sealed)"') : body,
    };
}
/** The fields `other` answered differently from `reference`; silence on either side is a status difference. */
function differingFields(reference, other) {
    if (reference === null || other === null)
        return ['status'];
    return exports.COMPARED.filter((f) => reference[f] !== other[f]);
}
async function pool(items, n, f) {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
        while (next < items.length)
            await f(items[next++]);
    }));
}
/** Sends every case to the reference and every other target, and compares. `targets` holds the reference. */
async function compareTargets(cases, targets, options) {
    if (!targets.some((t) => t.target === exports.REFERENCE))
        throw new Error(`the comparison needs the reference target ${exports.REFERENCE}`);
    const byCase = new Map();
    await pool(cases, options.concurrency, async (c) => {
        const answers = new Map();
        await Promise.all(targets.map(async (t) => answers.set(t.target, answerOf(await (0, http_1.exchange)(t.port, c.request, options.timeoutMs), options.sealedRequestState))));
        byCase.set(c, answers);
    });
    const alike = new Map();
    const counted = (operation, target) => {
        const counts = alike.get(operation) ?? new Map();
        counts.set(target, (counts.get(target) ?? 0) + 1);
        alike.set(operation, counts);
    };
    let disagreements = 0;
    const results = cases.map((c) => {
        const answers = byCase.get(c);
        const reference = answers.get(exports.REFERENCE);
        const differences = new Map();
        for (const t of targets) {
            if (t.target === exports.REFERENCE)
                continue;
            const fields = differingFields(reference, answers.get(t.target));
            if (fields.length > 0)
                differences.set(t.target, fields);
            else if (c.operation !== undefined)
                counted(c.operation, t.target);
        }
        if (reference !== null && c.operation !== undefined)
            counted(c.operation, exports.REFERENCE);
        if (reference === null || differences.size > 0)
            disagreements++;
        return { case: c, answers, differences };
    });
    return { results, disagreements, alike };
}
/** One answer in full, for a disagreement: status and compared headers on one line, the body as a JSON string. */
function formatAnswer(a) {
    if (a === null)
        return 'no answer';
    const head = exports.COMPARED.filter((f) => f !== 'status' && f !== 'body' && a[f] !== '').map((f) => `${f}: ${a[f]}`);
    const body = Buffer.from(a.body, 'latin1').toString('utf8');
    return `${a.status}${head.length > 0 ? ` (${head.join('; ')})` : ''} body ${a.body.length} bytes ${JSON.stringify(body)}`;
}
/** The report lines of one case: `✓`/`✗`, the reference's status, the name; under a disagreement, both answers in full. */
function caseLines(r) {
    const reference = r.answers.get(exports.REFERENCE);
    const status = reference === null ? '---' : reference.status;
    if (reference !== null && r.differences.size === 0)
        return [`  ✓ ${status} ${r.case.name}`];
    const lines = [`  ✗ ${status} ${r.case.name}`];
    if (r.differences.size === 0)
        lines.push(`      ${exports.REFERENCE} (the reference) did not answer`);
    for (const [target, fields] of r.differences) {
        const other = r.answers.get(target);
        const what = reference === null ? (other === null ? 'did not answer, nor did the reference' : 'answered, the reference did not') : other === null ? 'did not answer' : `differs on ${fields.join(', ')}`;
        lines.push(`      ${target} ${what}`, `        ${exports.REFERENCE.padEnd(16)} ${formatAnswer(reference)}`, `        ${target.padEnd(16)} ${formatAnswer(other)}`);
    }
    return lines;
}
