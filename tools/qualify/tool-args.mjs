// Minimal valid (and one deliberately invalid) argument set per tool. Known
// tools get hand-picked arguments; anything else is derived from its inputSchema.

/** Hand-picked arguments for tools whose schema alone does not give a useful call. */
export const KNOWN_ARGS = {
  // reference server (qualify/reference-server.mjs)
  echo: { text: 'qualify' },
  add: { a: 2, b: 3 },
  // example server (examples/context): read_section's id comes from an earlier result, see validArgs
  starter_plan: { query: 'deploy on Fastly', limit: 3 },
  search_docs: { query: 'legacy protocol', limit: 2 },
};

function minimal(schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const k of ['anyOf', 'oneOf']) if (Array.isArray(schema[k]) && schema[k].length) return minimal(schema[k][0], depth + 1);
  if (Array.isArray(schema.allOf) && schema.allOf.length) return minimal(Object.assign({}, ...schema.allOf), depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      const min = schema.minLength ?? 1;
      return 'mcp'.padEnd(Math.max(min, 3), 'x').slice(0, Math.max(min, schema.maxLength ?? 3));
    }
    case 'integer': return Math.max(schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'number': return schema.minimum ?? 1;
    case 'boolean': return false;
    case 'null': return null;
    case 'array': {
      const n = schema.minItems ?? 0;
      return Array.from({ length: n }, () => minimal(schema.items ?? {}, depth + 1));
    }
    case 'object':
    default: {
      const out = {};
      for (const key of schema.required ?? []) out[key] = minimal(schema.properties?.[key] ?? {}, depth + 1);
      return out;
    }
  }
}

/** Ids seen in earlier structured results (`results[].id`, `entries[].id`), reused for `{ id }` lookups. */
export function rememberIds(memory, structured) {
  for (const key of ['results', 'entries']) {
    for (const item of Array.isArray(structured?.[key]) ? structured[key] : []) {
      if (typeof item?.id === 'string') memory.push(item.id);
    }
  }
}

const needsSeenId = (tool) => {
  const s = tool.inputSchema ?? {};
  return (s.required ?? []).includes('id') && s.properties?.id?.type === 'string' && !s.properties.id.enum;
};

/** Lookups by a free-form id run last, so they can use an id an earlier call returned. */
export function callOrder(tools) {
  return [...tools.filter((t) => !needsSeenId(t)), ...tools.filter(needsSeenId)];
}

export function validArgs(tool, seenIds = []) {
  if (KNOWN_ARGS[tool.name]) return structuredClone(KNOWN_ARGS[tool.name]);
  const args = minimal(tool.inputSchema ?? { type: 'object' }) ?? {};
  if (needsSeenId(tool) && seenIds.length) args.id = seenIds[0];
  return args;
}

/**
 * A call that must fail input validation: the first tool with a required
 * property gets that property with the wrong JSON type. Tools without
 * required properties cannot be made invalid portably, so they are skipped.
 */
export function invalidCall(tools) {
  for (const tool of tools) {
    const schema = tool.inputSchema ?? {};
    const key = (schema.required ?? [])[0];
    if (!key) continue;
    const prop = schema.properties?.[key] ?? {};
    const type = Array.isArray(prop.type) ? prop.type[0] : prop.type;
    const wrong = type === 'string' ? 12345 : type === 'object' ? 'not-an-object' : 'not-a-' + (type ?? 'value');
    return { name: tool.name, arguments: { ...validArgs(tool), [key]: wrong }, property: key };
  }
  return null;
}
