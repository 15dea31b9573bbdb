/**
 * The declaration lowerer behind `pulse-mcp build`: reads a router module's source and rebuilds its
 * declarations without running any of it. Only what is written statically is accepted: literals,
 * object and array literals, module-level `const`s, JSON imports, and calls of the declaration API
 * itself (`new EntityRouter`, `.operation`, `codec.*`, `handlers.*`), which are run with those
 * static values to build the same definition the module would build. An exported `mcp({...})` binding
 * is read, never made: the router it binds is the one built, with its serverInfo, legacyProtocol,
 * limits (staticOptions of the binding puts the static ceilings over them), fastlyLogEndpoint and rateLimit. A JavaScript handler is never
 * called: it becomes a placeholder, and its body is only scanned for the context capabilities it
 * uses, for the maintainer's inspection artifact. Anything else (a computed name, a spread, a call
 * of the module's own functions, a codec built in a loop) fails with file:line:column and what to
 * write instead: the lowerer never guesses.
 *
 * The TypeScript compiler is passed in (`pulse-mcp build` loads it as an optional peer), so the
 * library itself keeps no dependency.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type * as TS from 'typescript';
import { codec, EntityRouter } from '../router';
import { handlers } from '../handlers';
import { routerDefinition } from '../router/router';
import type { HandlerDefinition, RouterDefinition } from '../router/definition';
import { ManifestError } from './errors';
import { eligibleTargets, targetRefusal, type Target } from './types';

/** Where declarations come from: the `/pulse` entry point (the root entry has no declaration API). */
const API_MODULE = '@pulse-compute/mcp/pulse';
/** Stands for `mcp`: its call is read as the static binding's declaration, never made. */
const MCP = Symbol('mcp');
const API: Record<string, unknown> = { EntityRouter, codec, handlers, mcp: MCP };
/** What a build reads of an `mcp()` call; the other options configure a process, not a build. */
const BINDING_KEYS = ['router', 'serverInfo', 'legacyProtocol', 'limits', 'fastlyLogEndpoint', 'rateLimit'];

export const INSPECTION_FORMAT_VERSION = 1;

export interface OperationInspection {
  readonly name: string;
  readonly handler: HandlerDefinition['kind'];
  /** What the handler may do, by capability; never a value. */
  readonly effects: readonly string[];
  /** `file:line:column` of the operation's name in the module. */
  readonly declaredAt: string;
}

export interface Inspection {
  readonly formatVersion: number;
  readonly kind: 'pulse.entities-inspection';
  readonly routerId: string;
  readonly operations: readonly OperationInspection[];
}

export interface Lowered {
  readonly definition: RouterDefinition;
  /** Per operation name, its inspection entry (the catalog hash is added by the caller). */
  readonly inspection: Inspection;
  /** The options of the exported `mcp({...})` call that binds this router, as written; absent without one. */
  readonly binding?: DeclaredBinding;
}

/** The static binding's options a build reads, each a static value; judged by staticOptions and the core. */
export interface DeclaredBinding {
  readonly serverInfo?: unknown;
  readonly legacyProtocol?: unknown;
  readonly limits?: unknown;
  readonly fastlyLogEndpoint?: unknown;
  readonly rateLimit?: unknown;
}

class BindingDeclaration {
  constructor(
    readonly router: EntityRouter,
    readonly options: DeclaredBinding,
  ) {}
}


class Undecidable extends Error {
  constructor(
    readonly node: TS.Node,
    what: string,
    readonly instead: string,
  ) {
    super(what);
  }
}

/** A function value the lowerer stands in for a JavaScript handler; calling it is a bug. */
function placeholder(): never {
  throw new Error('a lowered handler is never run');
}

interface Binding {
  readonly init?: TS.Expression;
  readonly api?: unknown;
  readonly json?: string;
  readonly why?: [TS.Node, string, string];
}

export function lowerRouter(ts: typeof TS, file: string, options: { router?: string; target?: Target } = {}): Lowered {
  const refused = options.target === undefined ? undefined : targetRefusal('target', options.target);
  if (refused !== undefined) throw new ManifestError(refused);
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ManifestError(`${file} cannot be read: ${(e as Error).message}`);
  }
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, /\.[cm]?tsx?$/.test(path) ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const position = (node: TS.Node): string => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return `${line + 1}:${character + 1}`;
  };
  const where = (node: TS.Node): string => `${file}:${position(node)}`;
  const bindings = new Map<string, Binding>();
  const exported: { name: string; expr: TS.Expression }[] = [];
  const handlerNodes = new WeakMap<object, TS.FunctionLikeDeclaration>();
  /** Operation name → where `.operation(name, …)` names it (the last declaration wins, as in the router). */
  const declared = new Map<string, TS.Node>();

  // Module scope: imports and top-level consts. Nothing is evaluated here.
  for (const stmt of source.statements) {
    if (ts.isImportDeclaration(stmt)) {
      const spec = (stmt.moduleSpecifier as TS.StringLiteral).text;
      const clause = stmt.importClause;
      if (clause === undefined) continue;
      const local = (name: string, b: Binding) => bindings.set(name, b);
      if (spec === API_MODULE) {
        if (clause.name) local(clause.name.text, { why: [clause.name, `${API_MODULE} has no default export`, `import { EntityRouter, codec, handlers } from '${API_MODULE}'`] });
        const nb = clause.namedBindings;
        if (nb && ts.isNamespaceImport(nb)) local(nb.name.text, { api: API });
        else if (nb) for (const el of nb.elements) local(el.name.text, { api: API[(el.propertyName ?? el.name).text] ?? { missing: (el.propertyName ?? el.name).text } });
      } else if (spec.endsWith('.json') && spec.startsWith('.') && clause.name) {
        local(clause.name.text, { json: resolve(dirname(path), spec) });
      } else {
        const names = [clause.name, ...(clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements.map((e) => e.name) : []), clause.namedBindings && ts.isNamespaceImport(clause.namedBindings) ? clause.namedBindings.name : undefined];
        for (const n of names) if (n) local(n.text, { why: [n, `${n.text} is imported from ${spec}, which the lowerer does not read`, 'declare it in this module as a const, or import JSON data with `import x from \'./x.json\' with { type: \'json\' }`'] });
      }
    } else if (ts.isVariableStatement(stmt)) {
      const isConst = (stmt.declarationList.flags & ts.NodeFlags.Const) !== 0;
      const isExported = stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
      for (const d of stmt.declarationList.declarations) {
        if (!ts.isIdentifier(d.name)) continue;
        if (!isConst || d.initializer === undefined) {
          bindings.set(d.name.text, { why: [d.name, `${d.name.text} is not a const with an initializer`, 'declare it once with `const` and a static value; a value assigned later (in a loop, for example) cannot be read without running the module'] });
          continue;
        }
        bindings.set(d.name.text, { init: d.initializer });
        if (isExported) exported.push({ name: d.name.text, expr: d.name });
      }
    } else if (ts.isExportAssignment(stmt) && !stmt.isExportEquals) {
      exported.push({ name: 'default', expr: stmt.expression });
    } else if (ts.isExportDeclaration(stmt) && !stmt.moduleSpecifier && stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
      for (const el of stmt.exportClause.elements) exported.push({ name: el.name.text, expr: el.propertyName ?? el.name });
    } else if ((ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt)) && stmt.name) {
      const kind = ts.isFunctionDeclaration(stmt) ? 'function' : 'class';
      bindings.set(stmt.name.text, { why: [stmt.name, `${stmt.name.text} is a ${kind}, which the lowerer does not run`, 'write the value it returns inline, or as a module-level const'] });
    }
  }

  const memo = new Map<string, { value: unknown } | 'busy'>();
  const resolveName = (id: TS.Identifier): unknown => {
    if (id.text === 'undefined') return undefined;
    const b = bindings.get(id.text);
    if (b === undefined) throw new Undecidable(id, `${id.text} is not declared at module level`, 'use a module-level const, a literal, or the declaration API');
    if (b.why) throw new Undecidable(b.why[0], b.why[1], b.why[2]);
    if (b.api !== undefined) {
      if (typeof b.api === 'object' && b.api !== null && 'missing' in b.api) throw new Undecidable(id, `${id.text} is not part of the declaration API`, 'use EntityRouter, codec and handlers');
      return b.api;
    }
    if (b.json !== undefined) {
      try {
        return JSON.parse(readFileSync(b.json, 'utf8'));
      } catch (e) {
        throw new Undecidable(id, `${relative(dirname(path), b.json)} is not readable JSON (${(e as Error).message})`, 'import a JSON file that exists');
      }
    }
    const seen = memo.get(id.text);
    if (seen === 'busy') throw new Undecidable(id, `${id.text} refers to itself`, 'declare values before their use, without cycles');
    if (seen) return seen.value;
    memo.set(id.text, 'busy');
    const value = evaluate(b.init!);
    memo.set(id.text, { value });
    return value;
  };

  const key = (name: TS.PropertyName): string => {
    if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name)) return name.text;
    throw new Undecidable(name, 'a computed property name', 'write the name as a literal');
  };

  const evaluate = (node: TS.Expression): unknown => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) return evaluate(node.expression);
    if (ts.isPrefixUnaryExpression(node) && (node.operator === ts.SyntaxKind.MinusToken || node.operator === ts.SyntaxKind.PlusToken) && ts.isNumericLiteral(node.operand)) {
      return node.operator === ts.SyntaxKind.MinusToken ? -Number(node.operand.text) : Number(node.operand.text);
    }
    if (ts.isIdentifier(node)) return resolveName(node);
    if (ts.isArrayLiteralExpression(node)) {
      return node.elements.map((e) => {
        if (ts.isSpreadElement(e)) throw new Undecidable(e, 'a spread', 'write the elements out');
        if (ts.isOmittedExpression(e)) throw new Undecidable(e, 'an array hole', 'write every element');
        return evaluate(e);
      });
    }
    if (ts.isObjectLiteralExpression(node)) {
      const out: Record<string, unknown> = {};
      for (const p of node.properties) {
        let name: string;
        let value: unknown;
        if (ts.isPropertyAssignment(p)) {
          name = key(p.name);
          // In a literal, `__proto__: x` sets the prototype rather than a member.
          if (name === '__proto__' && !ts.isComputedPropertyName(p.name)) throw new Undecidable(p, 'a __proto__ member', 'name the field otherwise');
          value = name === 'handler' && isFunction(p.initializer) ? handlerPlaceholder(p.initializer) : evaluate(p.initializer);
        } else if (ts.isShorthandPropertyAssignment(p)) {
          name = p.name.text;
          value = resolveName(p.name);
        } else if (ts.isMethodDeclaration(p) && key(p.name) === 'handler') {
          name = 'handler';
          value = handlerPlaceholder(p);
        } else if (ts.isSpreadAssignment(p)) {
          throw new Undecidable(p, 'a spread', 'write the members out');
        } else {
          throw new Undecidable(p, 'an accessor or method', 'write the member as `name: value`');
        }
        // defineProperty: a member named "__proto__" stays an own key, as in the module.
        Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    if (ts.isPropertyAccessExpression(node)) {
      const target = evaluate(node.expression);
      const name = node.name.text;
      if (typeof target === 'object' && target !== null && Object.prototype.hasOwnProperty.call(target, name)) return (target as Record<string, unknown>)[name];
      if (target instanceof EntityRouter && name === 'operation') return { router: target };
      throw new Undecidable(node, `${node.getText(source)} is not a static value or a declaration call`, 'read only members of static objects and call only the declaration API');
    }
    if (ts.isElementAccessExpression(node)) throw new Undecidable(node, 'a computed member access', 'refer to the value directly');
    if (ts.isNewExpression(node)) {
      if (evaluate(node.expression) !== EntityRouter) throw new Undecidable(node, `new ${node.expression.getText(source)}`, 'only `new EntityRouter(id, options)` is a declaration');
      const args = (node.arguments ?? []).map(arg);
      return new EntityRouter(args[0] as string, args[1] as never);
    }
    if (ts.isCallExpression(node)) {
      const own = ts.isIdentifier(node.expression) ? bindings.get(node.expression.text)?.init : undefined;
      if (own !== undefined && isFunction(own)) throw new Undecidable(node, `a call of ${node.expression.getText(source)}`, 'the lowerer runs no application code: write the value inline or as a module-level const (codecs and handlers only through codec.* and handlers.*)');
      const callee = evaluate(node.expression as TS.Expression);
      if (callee === MCP) return readBinding(node);
      const args = node.arguments.map(arg);
      if (typeof callee === 'object' && callee !== null && 'router' in callee) {
        const r = (callee as { router: EntityRouter }).router.operation(args[0] as string, args[1] as never);
        if (typeof args[0] === 'string') declared.set(args[0], node.arguments[0]!);
        return r;
      }
      if (isApiFunction(callee)) return (callee as (...a: unknown[]) => unknown)(...args);
      throw new Undecidable(node, `a call of ${node.expression.getText(source)}`, 'the lowerer runs no application code: write the value inline or as a module-level const (codecs and handlers only through codec.* and handlers.*)');
    }
    if (isFunction(node)) throw new Undecidable(node, 'a function', 'a function is read only as an operation handler');
    if (ts.isTemplateExpression(node)) throw new Undecidable(node, 'a template with substitutions', 'write the text as one literal');
    if (ts.isConditionalExpression(node)) throw new Undecidable(node, 'a conditional value', 'write the value the declaration needs');
    if (ts.isBinaryExpression(node)) throw new Undecidable(node, 'a computed value', 'write the result as a literal');
    throw new Undecidable(node, `an expression the lowerer cannot read (${ts.SyntaxKind[node.kind]})`, 'write a literal, a module-level const or a declaration call');
  };
  const arg = (a: TS.Expression): unknown => {
    if (ts.isSpreadElement(a)) throw new Undecidable(a, 'a spread argument', 'pass the arguments one by one');
    return evaluate(a);
  };
  /** `mcp({ router, ... })`: the router it binds and the options a build reads, each a static value. */
  const readBinding = (node: TS.CallExpression): BindingDeclaration => {
    let opts: TS.Expression | undefined = node.arguments[0];
    while (opts !== undefined && (ts.isParenthesizedExpression(opts) || ts.isAsExpression(opts) || ts.isSatisfiesExpression(opts))) opts = opts.expression;
    if (opts === undefined || node.arguments.length !== 1 || !ts.isObjectLiteralExpression(opts)) {
      throw new Undecidable(node, 'an mcp() call whose argument is not one object literal', "write mcp({ router, serverInfo: { name: '…', version: '…' } })");
    }
    const read: Record<string, unknown> = {};
    for (const p of opts.properties) {
      if (ts.isSpreadAssignment(p)) throw new Undecidable(p, 'a spread', 'write the members out');
      if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) throw new Undecidable(p, 'an accessor or method', 'write the member as `name: value`');
      const name = key(p.name);
      if (!BINDING_KEYS.includes(name)) throw new Undecidable(p, `the mcp() option ${name} is not part of a built binding`, `a build reads ${BINDING_KEYS.join(', ')}`);
      read[name] = ts.isShorthandPropertyAssignment(p) ? resolveName(p.name) : evaluate(p.initializer);
    }
    const { router, ...declared } = read;
    if (!(router instanceof EntityRouter)) throw new Undecidable(opts, 'mcp() binds no router declared with new EntityRouter(...)', 'pass the router as router: <a module-level const>');
    return new BindingDeclaration(router, declared);
  };
  const isFunction = (n: TS.Node): n is TS.ArrowFunction | TS.FunctionExpression => ts.isArrowFunction(n) || ts.isFunctionExpression(n);
  const apiFunctions = new Set<unknown>([...Object.values(codec), ...Object.values(handlers)]);
  const isApiFunction = (f: unknown): boolean => typeof f === 'function' && apiFunctions.has(f);
  const handlerPlaceholder = (fn: TS.FunctionLikeDeclaration): unknown => {
    const stand = (..._args: unknown[]) => placeholder();
    handlerNodes.set(stand, fn);
    return stand;
  };

  // Which exports are routers: decided from the syntax, so nothing else exported is evaluated.
  const isRouterExpr = (n: TS.Expression, depth = 0): boolean => {
    if (depth > 64) return false;
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n)) return isRouterExpr(n.expression, depth + 1);
    if (ts.isNewExpression(n)) return ts.isIdentifier(n.expression) || ts.isPropertyAccessExpression(n.expression) ? /EntityRouter$/.test(n.expression.getText(source)) : false;
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'operation') return isRouterExpr(n.expression.expression, depth + 1);
    if (ts.isIdentifier(n)) {
      const init = bindings.get(n.text)?.init;
      return init !== undefined && isRouterExpr(init, depth + 1);
    }
    return false;
  };

  // Which exports are static bindings: calls named mcp, decided from the syntax as well.
  const isBindingExpr = (n: TS.Expression, depth = 0): boolean => {
    if (depth > 64) return false;
    if (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n)) return isBindingExpr(n.expression, depth + 1);
    if (ts.isCallExpression(n)) return (ts.isIdentifier(n.expression) || ts.isPropertyAccessExpression(n.expression)) && /(^|\.)mcp$/.test(n.expression.getText(source));
    if (ts.isIdentifier(n)) {
      const init = bindings.get(n.text)?.init;
      return init !== undefined && isBindingExpr(init, depth + 1);
    }
    return false;
  };

  let routers: EntityRouter[];
  const served: { name: string; declaration: BindingDeclaration }[] = [];
  try {
    routers = [];
    for (const e of exported) {
      if (isBindingExpr(e.expr)) {
        const b = evaluate(e.expr) as BindingDeclaration;
        if (!served.some((s) => s.declaration === b)) served.push({ name: e.name, declaration: b });
        if (!routers.includes(b.router)) routers.push(b.router);
        continue;
      }
      if (!isRouterExpr(e.expr)) continue;
      const r = evaluate(e.expr);
      if (r instanceof EntityRouter && !routers.includes(r)) routers.push(r);
    }
  } catch (e) {
    if (e instanceof Undecidable) throw new ManifestError(`${where(e.node)}: ${e.message}; ${e.instead}`);
    // The declaration API refused a static value: its own message, at the module.
    throw new ManifestError(`${file}: ${(e as Error).message}`);
  }
  if (routers.length === 0) {
    // The export a router is looked for under: say why it cannot be read, at its place.
    const candidate = exported.find((e) => e.name === 'default') ?? exported.find((e) => e.name === 'router');
    const because = candidate && (ts.isIdentifier(candidate.expr) ? bindings.get(candidate.expr.text)?.init ?? candidate.expr : candidate.expr);
    if (because !== undefined && !ts.isIdentifier(because) && ts.isCallExpression(because)) {
      throw new ManifestError(`${where(because)}: the ${candidate!.name} export is built by a call of ${because.expression.getText(source)}; the lowerer runs no application code: declare the router in this module as new EntityRouter(id, options).operation(...)`);
    }
    throw new ManifestError(`${file}: exports no router declared with new EntityRouter(...) (as default or as a named const)`);
  }
  if (served.length > 1) throw new ManifestError(`${file}: exports the mcp() bindings ${served.map((s) => s.name).join(', ')}; a service module exports one`);
  const binding = served[0]?.declaration;
  let router: EntityRouter;
  if (options.router === undefined && binding !== undefined) router = binding.router;
  else if (options.router !== undefined) {
    const r = routers.find((x) => x.id === options.router);
    if (r === undefined) throw new ManifestError(`${file}: no exported router has the id ${JSON.stringify(options.router)} (it exports ${routers.map((x) => x.id).join(', ')})`);
    router = r;
  } else if (routers.length > 1) {
    throw new ManifestError(`${file}: exports the routers ${routers.map((x) => x.id).join(', ')}; choose one with --router <id>`);
  } else router = routers[0]!;

  const definition = routerDefinition(router);
  const operations = definition.operations.map((op): OperationInspection => {
    const h = op.handler;
    const fnNode = h.kind === 'javascript' ? handlerNodes.get(h.fn) : undefined;
    const named = declared.get(op.name);
    return {
      name: op.name,
      handler: h.kind,
      effects: h.kind === 'javascript' ? (fnNode ? scanEffects(ts, fnNode, source) : ['runs JavaScript']) : nativeEffects(h),
      declaredAt: named ? `${basename(path)}:${position(named)}` : basename(path),
    };
  });
  if (options.target !== undefined) {
    const target = options.target;
    const wrong = operations.filter((o) => !eligibleTargets(o.handler).includes(target));
    // A Native target runs static, corpus and backend handlers only; Fastly's JavaScript runtime runs the rest.
    const instead = target.endsWith('-native') ? '; the Native service runs static, corpus and backend handlers only: build a router with JavaScript handlers for Fastly with --target fastly-javascript' : '';
    if (wrong.length > 0) throw new ManifestError(`${file}: ${wrong.map((o) => o.name).join(', ')} ${wrong.length === 1 ? 'has' : 'have'} a JavaScript handler, which target ${target} does not run${instead}`);
  }
  return {
    definition,
    inspection: { formatVersion: INSPECTION_FORMAT_VERSION, kind: 'pulse.entities-inspection', routerId: router.id, operations },
    ...(binding?.router === router ? { binding: binding.options } : {}),
  };
}

function nativeEffects(h: Exclude<HandlerDefinition, { kind: 'javascript' }>): string[] {
  switch (h.kind) {
    case 'static':
      return ['returns a fixed result'];
    case 'corpus':
      return [`reads corpus ${h.corpus} (${h.action})`];
    case 'backend':
      return [`calls backend ${h.backend} (${h.method} ${h.path})`];
  }
}

/** The context capabilities a handler's body uses, by name only; never an argument's value. */
function scanEffects(ts: typeof TS, fn: TS.FunctionLikeDeclaration, source: TS.SourceFile): string[] {
  const first = fn.parameters[0];
  const ctx = first && ts.isIdentifier(first.name) ? first.name.text : undefined;
  const effects = new Set<string>();
  const literal = (n: TS.Expression | undefined): string | undefined => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const visit = (n: TS.Node): void => {
    if (ts.isCallExpression(n)) {
      const chain = n.expression.getText(source).replace(/\s+/g, '');
      if (ctx !== undefined && chain.startsWith(`${ctx}.`)) {
        const member = chain.slice(ctx.length + 1);
        const arg0 = literal(n.arguments[0]);
        if (member === 'fetch') {
          let origin: string | undefined;
          try {
            origin = arg0 === undefined ? undefined : new URL(arg0).origin;
          } catch {
            origin = undefined;
          }
          effects.add(origin ? `fetches ${origin}` : 'fetches a declared backend');
        } else if (member === 'kv.get') effects.add('reads kv');
        else if (member === 'kv.put') effects.add('writes kv');
        else if (member === 'kv.delete') effects.add('deletes from kv');
        else if (member === 'secret') effects.add(arg0 ? `reads secret ${arg0}` : 'reads a secret');
        else if (member === 'call') effects.add(arg0 ? `calls operation ${arg0}` : 'calls an operation');
        else if (member.startsWith('log.')) effects.add('logs');
        else if (member === 'progress') effects.add('reports progress');
        else effects.add(`uses ctx.${member.split('.')[0]}`);
      } else if (chain === 'fetch' || chain === 'globalThis.fetch') {
        effects.add('calls the global fetch, outside the governed context');
      }
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  return effects.size > 0 ? [...effects].sort() : ['computes its result (no context capability)'];
}
