// Compares one observed reply with an outcome row; returns every mismatch as a readable line so a
// failing row reports expected vs actual in one place.
import { isDeepStrictEqual } from 'node:util';
import type { OutcomeExpected } from '../../spec/outcomes.rows';
import { CANARY } from './fixtures';

export interface Observed {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

const show = (v: unknown) => JSON.stringify(v);

export function mediaType(v: string | undefined): string | undefined {
  return v?.split(';')[0]?.trim().toLowerCase();
}

export function compareOutcome(e: OutcomeExpected, o: Observed): string[] {
  const out: string[] = [];
  const text = Buffer.from(o.body).toString('utf8');
  if (o.status !== e.status) out.push(`status: expected ${e.status}, got ${o.status} (body ${text.slice(0, 300)})`);
  if (o.headers['cache-control'] !== 'no-store') {
    out.push(`cache-control: expected "no-store", got ${show(o.headers['cache-control'])}`);
  }
  for (const [k, v] of Object.entries(e.headers ?? {})) {
    // `null`: the header must be absent.
    if (o.headers[k] !== (v ?? undefined)) out.push(`header ${k}: expected ${show(v)}, got ${show(o.headers[k])}`);
  }
  if (e.empty) {
    if (o.body.length !== 0) out.push(`body: expected empty, got ${o.body.length} bytes: ${text.slice(0, 200)}`);
    return out;
  }
  if (mediaType(o.headers['content-type']) !== 'application/json') {
    out.push(`content-type: expected application/json, got ${show(o.headers['content-type'])}`);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(o.body));
  } catch {
    out.push(`body: not JSON: ${text.slice(0, 200)}`);
    return out;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    out.push(`body: not an object: ${text.slice(0, 200)}`);
    return out;
  }
  if (json.jsonrpc !== '2.0') out.push(`jsonrpc: expected "2.0", got ${show(json.jsonrpc)}`);
  const keys = Object.keys(json).sort();
  if (e.code === null) {
    if (!isDeepStrictEqual(keys, ['id', 'jsonrpc', 'result'])) out.push(`members: expected id,jsonrpc,result, got ${keys}`);
    if (e.id !== 'any' && !isDeepStrictEqual(json.id, e.id)) out.push(`id: expected ${show(e.id)}, got ${show(json.id)}`);
    if (e.result !== undefined && !isDeepStrictEqual(json.result, e.result)) {
      out.push(`result: expected ${show(e.result)}, got ${show(json.result)}`);
    }
    return out;
  }
  const error = json.error as Record<string, unknown> | undefined;
  if (!error || typeof error !== 'object') {
    out.push(`error: expected code ${e.code}, got body ${text.slice(0, 300)}`);
    return out;
  }
  if (error.code !== e.code) out.push(`code: expected ${e.code}, got ${show(error.code)} (message ${show(error.message)})`);
  if (typeof error.message !== 'string' || error.message.length === 0) out.push(`message: expected a non-empty string, got ${show(error.message)}`);
  if (text.includes(CANARY)) out.push('body echoes request input (canary found)');
  const ekeys = Object.keys(error).filter((k) => !['code', 'message', 'data'].includes(k));
  if (ekeys.length) out.push(`error members: unexpected ${ekeys}`);
  if (e.data !== undefined) {
    if (!isDeepStrictEqual(error.data, e.data)) out.push(`error.data: expected ${show(e.data)}, got ${show(error.data)}`);
  } else if ('data' in error) {
    out.push(`error.data: expected none, got ${show(error.data)}`);
  }
  const expectedKeys = e.id === 'absent' ? ['error', 'jsonrpc'] : ['error', 'id', 'jsonrpc'];
  if (e.id === 'any') {
    if (!keys.every((k) => ['error', 'id', 'jsonrpc'].includes(k))) out.push(`members: unexpected ${keys}`);
  } else if (!isDeepStrictEqual(keys, expectedKeys)) {
    out.push(`members: expected ${expectedKeys}, got ${keys} (id ${show(json.id)})`);
  }
  if (e.id !== 'absent' && e.id !== 'any' && !isDeepStrictEqual(json.id, e.id)) {
    out.push(`id: expected ${show(e.id)}, got ${show(json.id)}`);
  }
  return out;
}
