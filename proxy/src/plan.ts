// A condition (spec, layer, severity, seed; a second layer and a transport fault if it has them)
// becomes the proxy's plan: what it does to the spec's documents, to its write, and on the way
// between the browser and the app. Nothing here branches on a layer: the layers' rules and
// parameters are data (proxy/faults/layers.json, transport.json), and the only draws (where the
// decoys stand, which error status) come from the condition's seed, so the same condition gives the
// same plan in any process, at any concurrency.
//
//   layers.json ──(layer, severity) [+ (also.layer, also.severity)]──▶ rules with their values ─┐
//   seed ──rng(seed, family, layer, severity)──▶ decoys before ─────────────────────────────────┤
//   transport.json ──(transport.fault, transport.severity) + seed──▶ TransportPlan ─────────────┴─▶ Plan
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationError } from './errors.ts';
import { validate } from './validate.ts';
import { rng } from './random.ts';
import type { FaultLayers, FaultValue, FaultLayer, FaultTransport } from './contracts.ts';
import { compileSpec, type CompiledSpec, type FaultSpec } from './spec.ts';
import { transportPlanFor, type TransportCondition, type TransportPlan } from './transport.ts';

/** The proxy's own tables and its page script: faults/, beside src/ (and dist/ in the installed package). */
export const faultsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'faults');
const tableFile = path.join(faultsFolder, 'layers.json');
/**
 * The layer tables by name: `current` (layers.json, the seed's Verification: a later save commits)
 * and `v1` (layers-v1.json: Verification never forwards the write), which the registered version 1
 * arms ran with (prereg/layers-real-apps.md, prereg/layers-transport.md). An arm names the one its
 * protocol says; a user's run takes the current one.
 */
export const layerTableFiles = { current: tableFile, v1: path.join(faultsFolder, 'layers-v1.json') } as const;
export type LayerTableName = keyof typeof layerTableFiles;

/** The layer table, checked: its schema, and every value a rule names is one of its layer's parameters. */
export function readLayerTable(file = tableFile): FaultLayers {
  const where = path.relative(process.cwd(), file) || file;
  const table = validate<FaultLayers>('fault-layers', JSON.parse(fs.readFileSync(file, 'utf8')), { file: where });
  for (const [layer, entry] of Object.entries(table.layers)) {
    entry.rules.forEach((rule, i) => {
      const values = rule.match === 'page'
        ? Object.entries(rule.inject)
        : [['forward_after_ms', rule.forward_after_ms] as const, ...(rule.pass_from_save === undefined ? [] : [['pass_from_save', rule.pass_from_save] as const])];
      for (const [key, value] of values) {
        if (typeof value === 'string' && !entry.parameters[value]) {
          throw new ValidationError(where, null, `layers.${layer}.rules.${i}.${rule.match === 'page' ? `inject.${key}` : key}`, `names ${JSON.stringify(value)}, which is not one of the layer's parameters`);
        }
      }
    });
  }
  return table;
}

const tables = new Map<LayerTableName, FaultLayers>();
/** One of the proxy's own tables (default: layers.json, the one in force), each read once. */
export const layerTable = (name: LayerTableName = 'current'): FaultLayers => {
  if (!tables.has(name)) tables.set(name, readLayerTable(layerTableFiles[name]));
  return tables.get(name)!;
};

export type Severity = 0 | 1 | 2 | 3;

/** A layer's name: a key of the layer table in use (baseline, access, … in the proxy's own). */
export type Layer = string;

/** The layers a table names, in its order: the only list of names there is (no fixed one in code). */
export const layerNames = (faultTable: FaultLayers = layerTable()): string[] => Object.keys(faultTable.layers);

/** The severities a layer takes: 0 for one without rules (the baseline: nothing changes), else 1, 2, 3. */
export const severitiesOf = (faultTable: FaultLayers, layer: Layer): Severity[] => (faultTable.layers[layer]?.rules.length === 0 ? [0] : [1, 2, 3]);

/** One condition of the proxy: the family's spec, the layer and severity, the condition's seed. */
export interface Condition {
  spec: FaultSpec | CompiledSpec;
  layer: Layer;
  severity: Severity;
  seed: string;
  /** a compound condition's second layer (not baseline, not the first), on top of the first */
  also?: { layer: Layer; severity: Severity };
  /** a transport fault on the way between the browser and the app, on top of the layers */
  transport?: TransportCondition;
}

/** What the injected script does in a document of the spec's pages (all zero: nothing is injected). */
export interface PageFault {
  hideMs: number;
  decoys: number;
  /** how many of the decoys stand before the target (the rest after it): the seed's draw */
  decoysBefore: number;
  swallow: number;
}

export interface Plan {
  spec: CompiledSpec;
  layer: Layer;
  severity: Severity;
  seed: string;
  /** null: documents pass unchanged */
  page: PageFault | null;
  /**
   * null: the write passes to the app; else the proxy answers it, and forwards it after
   * forwardAfterMs (null: never), except from the passFromSave-th write of the condition on (null:
   * none), which passes to the app untouched
   */
  write: { forwardAfterMs: number | null; passFromSave: number | null } | null;
  /** the second layer of a compound condition, or null */
  also: { layer: Layer; severity: Severity } | null;
  /** the transport fault, or null */
  transport: TransportPlan | null;
}

const isCompiled = (spec: FaultSpec | CompiledSpec): spec is CompiledSpec => 'pages' in spec && spec.pages instanceof RegExp;

function checkLayer(faultTable: FaultLayers, layer: Layer, severity: Severity, field: string): void {
  const where = 'the condition';
  const names = layerNames(faultTable);
  if (!names.includes(layer)) throw new ValidationError(where, null, `${field}layer`, `must be one of ${JSON.stringify(names)}`);
  const severities = severitiesOf(faultTable, layer);
  if (!severities.includes(severity)) throw new ValidationError(where, null, `${field}severity`, `must be ${severities.join(', ')} for layer ${layer}`);
}

function checkCondition(condition: Condition, faultTable: FaultLayers): void {
  checkLayer(faultTable, condition.layer, condition.severity, '');
  if (condition.also) {
    checkLayer(faultTable, condition.also.layer, condition.also.severity, 'also.');
    const empty = [condition.layer, condition.also.layer].find((l) => faultTable.layers[l]!.rules.length === 0);
    if (empty !== undefined) throw new ValidationError('the condition', null, 'also.layer', `a compound condition is two fault layers: neither may be ${empty}, which has no rules`);
    if (condition.also.layer === condition.layer) throw new ValidationError('the condition', null, 'also.layer', `is the condition's layer (${condition.layer}) again`);
  }
  if (typeof condition.seed !== 'string' || condition.seed.length === 0) throw new ValidationError('the condition', null, 'seed', 'must be a non-empty string');
}

function valueOf(entry: FaultLayer, value: FaultValue, severity: Severity): number {
  return typeof value === 'number' ? value : entry.parameters[value]!.values[severity - 1]!;
}

/** The plan of a condition; a malformed condition or spec is a ValidationError naming the field. */
export function planFor(condition: Condition, faultTable: FaultLayers = layerTable(), transportFaultTable?: FaultTransport): Plan {
  checkCondition(condition, faultTable);
  const spec = isCompiled(condition.spec) ? condition.spec : compileSpec(condition.spec);
  const page: PageFault = { hideMs: 0, decoys: 0, decoysBefore: 0, swallow: 0 };
  let write: Plan['write'] = null;
  let writeLayer: Layer | null = null;
  // a compound condition's two layers: their page faults together, one of them at most answering the write
  for (const { layer, severity } of [{ layer: condition.layer, severity: condition.severity }, ...(condition.also ? [condition.also] : [])]) {
    const entry = faultTable.layers[layer]!;
    for (const rule of entry.rules) {
      if (rule.match === 'page') {
        const v = (key: keyof typeof rule.inject) => (rule.inject[key] === undefined ? 0 : valueOf(entry, rule.inject[key]!, severity));
        page.hideMs = Math.max(page.hideMs, v('hide_ms'));
        page.decoys = Math.max(page.decoys, v('decoys'));
        page.swallow = Math.max(page.swallow, v('swallow'));
      } else {
        if (writeLayer !== null) throw new ValidationError('the condition', null, 'also.layer', `${layer} and ${writeLayer} both answer the write: a compound condition holds one of them at most`);
        writeLayer = layer;
        write = {
          forwardAfterMs: rule.forward_after_ms === null ? null : valueOf(entry, rule.forward_after_ms, severity),
          passFromSave: rule.pass_from_save === undefined ? null : valueOf(entry, rule.pass_from_save, severity),
        };
      }
    }
  }
  if (page.decoys > 0) {
    // the draw of the layer that brings the decoys, as in a condition of that layer alone
    const decoyLayer = condition.also && faultTable.layers[condition.also.layer]!.rules.some((r) => r.match === 'page' && r.inject.decoys !== undefined) ? condition.also : condition;
    page.decoysBefore = rng(condition.seed, 'fault-proxy', spec.spec.family, decoyLayer.layer, decoyLayer.severity).int(page.decoys + 1);
  }
  const transport = condition.transport ? transportPlanFor(condition.transport, condition.seed, spec.spec.family, transportFaultTable) : null;
  const anyPage = page.hideMs > 0 || page.decoys > 0 || page.swallow > 0;
  return { spec, layer: condition.layer, severity: condition.severity, seed: condition.seed, page: anyPage ? page : null, write, also: condition.also ?? null, transport };
}
