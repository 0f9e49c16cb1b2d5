// The column types DuckDB reads the raw rows with, derived from schemas/trace.schema.json — the one
// place the trace row is written — so the SQL never restates the contract. load_trace.sql says
// `columns = {{trace columns}}` and analysis/duck.ts puts this struct there.
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../core/paths.ts';
import type { Study } from './rows.ts';

interface Node { type?: string | string[]; enum?: unknown[]; const?: unknown; properties?: Record<string, Node>; $ref?: string; additionalProperties?: boolean | Node }

const traceSchema = () => JSON.parse(fs.readFileSync(path.join(paths.schemas(), 'trace.schema.json'), 'utf8')) as { $defs: Record<string, Node> };

/** The DuckDB type of one schema property: scalars by their JSON type, closed objects as structs, maps of a $def, else JSON. */
export function duckType(node: Node, defs: Record<string, Node>): string {
  const scalar = [node.type].flat().find((t) => t && t !== 'null') ?? (node.enum || node.const !== undefined ? 'string' : undefined);
  switch (scalar) {
    case 'string': return 'VARCHAR';
    case 'integer': return 'INTEGER';
    case 'number': return 'DOUBLE';
    case 'boolean': return 'BOOLEAN';
    case 'object': {
      if (node.properties && !node.additionalProperties) return `STRUCT(${Object.entries(node.properties).map(([k, v]) => `${k} ${duckType(v, defs)}`).join(', ')})`;
      const values = node.additionalProperties;
      if (values && typeof values === 'object') return `MAP(VARCHAR, ${duckType(values.$ref ? defs[values.$ref.replace('#/$defs/', '')]! : values, defs)})`;
      return 'JSON';
    }
    default: return 'JSON';
  }
}

/** Every column of a study's rows with its type: the header's, then the study's own. */
export function traceColumns(study: Study): Record<string, string> {
  const { $defs } = traceSchema();
  const props = { ...$defs.header!.properties!, ...$defs[study]!.properties! };
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, duckType(v, $defs)]));
}

/** The struct literal read_json takes as `columns`. */
export function columnsLiteral(study: Study): string {
  const cols = Object.entries(traceColumns(study)).map(([k, t]) => `    ${k}: '${t}'`);
  return `{\n${cols.join(',\n')}\n  }`;
}
