// An OpenAI `response_format: {type: "json_schema"}` schema, made into what node-llama-cpp's grammar
// accepts (its GbnfJsonSchema: type, const, enum, oneOf, $ref to #/$defs, properties, required,
// additionalProperties, items, minItems/maxItems, string minLength/maxLength, date/time formats).
//
//   anyOf ─▶ oneOf (the grammar allows any one branch, which is what anyOf means for these schemas)
//   value bounds the grammar cannot hold (pattern, minimum, maximum, other formats) ─▶ dropped, and
//   named in `relaxed`: the output then obeys a looser schema, and the client validates it in full
//   annotations ($schema, $id, title, description, default, examples, $comment) ─▶ dropped
//   anything else (allOf, not, if/then, patternProperties, a $ref outside #/$defs, …) ─▶ refused
//
// Pure; its own test is test/pipeline/models/json-schema.test.ts.
export class SchemaNotSupported extends Error {}

const annotations = new Set(['$schema', '$id', 'title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const relaxable = new Set(['pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'uniqueItems', 'format']);
const kept = new Set(['type', 'const', 'enum', 'anyOf', 'oneOf', '$ref', '$defs', 'properties', 'required', 'additionalProperties', 'items', 'prefixItems', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
const grammarFormats = new Set(['date-time', 'date', 'time']);

export interface Converted { schema: Record<string, unknown>; relaxed: string[] }

/** The grammar's schema for `schema`, and the keywords it does not enforce (JSON pointers). */
export function toGrammarSchema(schema: unknown): Converted {
  const relaxed: string[] = [];
  const walk = (node: unknown, at: string): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new SchemaNotSupported(`${at || '/'}: a schema must be an object`);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const here = `${at}/${key}`;
      if (annotations.has(key)) continue;
      if (key === 'format' && typeof value === 'string' && grammarFormats.has(value)) { out.format = value; continue; }
      if (relaxable.has(key)) { relaxed.push(here); continue; }
      if (!kept.has(key)) throw new SchemaNotSupported(`${here}: the keyword ${key} is not supported by this server's grammar`);
      switch (key) {
        case 'anyOf':
        case 'oneOf':
        case 'prefixItems':
          if (!Array.isArray(value)) throw new SchemaNotSupported(`${here}: must be a list of schemas`);
          out[key === 'anyOf' ? 'oneOf' : key] = value.map((v, i) => walk(v, `${here}/${i}`));
          break;
        case 'properties':
        case '$defs':
          out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, `${here}/${k}`)]));
          break;
        case 'items':
          out.items = walk(value, here);
          break;
        case 'additionalProperties':
          out.additionalProperties = typeof value === 'boolean' ? value : walk(value, here);
          break;
        case '$ref':
          if (typeof value !== 'string' || !/^#\/\$defs\/[^/]+$/.test(value)) throw new SchemaNotSupported(`${here}: only references to #/$defs/<name> are supported, not ${JSON.stringify(value)}`);
          out.$ref = value;
          break;
        default:
          out[key] = value;
      }
    }
    if (out.oneOf && out.type === undefined && out.$defs === undefined && Object.keys(out).length > 1) {
      throw new SchemaNotSupported(`${at || '/'}: oneOf/anyOf beside other keywords is not supported`);
    }
    return out;
  };
  const root = walk(schema, '') as Record<string, unknown>;
  // the grammar resolves $ref against the $defs of an enclosing schema: hoisting keeps them at the root
  return { schema: root, relaxed };
}
