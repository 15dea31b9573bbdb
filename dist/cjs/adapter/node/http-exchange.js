"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nodeExchange = nodeExchange;
/** Distinct effect URLs remembered parsed; they are fixed by the configuration, so few. */
const MAX_TARGETS = 64;
/** An exchange with its own keep-alive agents (their idle sockets never keep the process alive). */
function nodeExchange(node) {
    const httpAgent = new node.http.Agent({ keepAlive: true });
    // Made on the first https URL: reading `node.https` may load it (the Node bindings defer it).
    let httpsAgent;
    const targets = new Map();
    const targetOf = (text) => {
        if (targets.has(text))
            return targets.get(text);
        let target;
        try {
            const url = new URL(text);
            if (url.protocol === 'http:' || url.protocol === 'https:') {
                const secure = url.protocol === 'https:';
                target = { https: secure, options: { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || (secure ? 443 : 80), path: url.pathname + url.search, agent: secure ? (httpsAgent ??= new node.https.Agent({ keepAlive: true })) : httpAgent } };
            }
        }
        catch {
            target = undefined;
        }
        if (targets.size < MAX_TARGETS)
            targets.set(text, target);
        return target;
    };
    return (effect, cancellation) => new Promise((resolve) => {
        let settled = false;
        const settle = (r) => {
            if (settled)
                return;
            settled = true;
            resolve(r);
        };
        const target = targetOf(effect.url);
        if (target === undefined)
            return settle('unreachable');
        const headers = {};
        for (const [name, value] of effect.headers)
            headers[name] = value;
        if (effect.body !== undefined)
            headers['content-length'] = String(Buffer.byteLength(effect.body));
        const request = (target.https ? node.https : node.http).request({ ...target.options, method: effect.method, headers });
        // A listener, not an AbortSignal: most exchanges are never abandoned.
        cancellation.addEventListener('abort', () => {
            request.destroy();
            settle('unreachable');
        });
        request.on('error', () => settle('unreachable'));
        request.on('response', (response) => {
            const status = response.statusCode ?? 0;
            const parts = [];
            let total = 0;
            const done = () => settle({ status, body: Buffer.concat(parts, total) });
            response.on('data', (chunk) => {
                total += chunk.length;
                parts.push(chunk);
                // Past the cap the rest is never read: the core judges the reply oversized.
                if (total > effect.maxBytes) {
                    done();
                    response.destroy();
                }
            });
            response.on('end', done);
            response.on('error', () => settle('unreachable'));
            response.on('aborted', () => settle('unreachable'));
        });
        request.end(effect.body);
    });
}
