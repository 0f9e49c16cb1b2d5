#!/usr/bin/env node
// rstackbench-fault-proxy: the fault proxy as a command. It loads one condition (a fault spec; a
// layer and severity, a second layer, a transport fault, or any of them together; a seed) and keeps
// it until it is stopped (SIGTERM, SIGINT), on 127.0.0.1. Every fault is named from the command
// line, and every name comes from the tables (the proxy's own, or --layer-table and
// --transport-table of yours): `--list` prints them.
//
//   rstackbench-fault-proxy --spec FILE [--layer L --severity S] [--also L:S]
//        [--transport NAME [--transport-severity S]] [--layer-table FILE] [--transport-table FILE]
//        [--seed SEED] [--port P] [--https] [--hosts a,b] [--upstream-ca FILE,…]
//        [--events FILE] [--state DIR]
//
// In a terminal it prints its URL and the browser flags, and each event as a line to --events.
// With --state DIR (what `make fault-proxy` starts in the background) its messages go to DIR's log
// and it writes its state file (url, pid, CA) once it listens; each start writes a fresh
// events.jsonl there (the previous start's is kept as events.previous.jsonl), one proxy's run per
// file, its ids unique in it.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RStackError, UsageError } from './errors.ts';
import { readFaultSpec } from './spec.ts';
import { layerNames, layerTable, layerTableFiles, readLayerTable, planFor, severitiesOf, type Condition, type Severity } from './plan.ts';
import { startFaultProxy } from './proxy.ts';
import { readTransportTable, transportFaultNames, transportTable, transportTableFile } from './transport.ts';
import { shownFile } from './validate.ts';
import type { FaultLayers, FaultTransport } from './contracts.ts';

/** What a running service leaves in its state folder, for a harness to print and to stop. */
export interface ServiceState {
  pid: number;
  url: string;
  port: number;
  ca: { certPath: string; spki: string } | null;
  spec: string;
  family: string;
  layer: string;
  severity: number;
  /** a compound condition's second layer, or null */
  also: { layer: string; severity: number } | null;
  /** the transport fault, and the table it was read from (null: the proxy's own), or null */
  transport: { fault: string; severity: number; table: string | null } | null;
  /** the layer table it was read from (null: the proxy's own) */
  layer_table?: string | null;
  seed: string;
  started_at: string;
}

export const serviceFiles = (state: string) => ({
  state: path.join(state, 'proxy.json'),
  pid: path.join(state, 'proxy.pid'),
  log: path.join(state, 'proxy.log'),
  events: path.join(state, 'events.jsonl'),
  previousEvents: path.join(state, 'events.previous.jsonl'),
});

type Flag = ({ type: 'string'; default?: string } | { type: 'boolean'; default?: boolean }) & { help: string };

/** The condition's flags, which a harness that starts this command passes on (make fault-proxy). */
export const conditionOptions = {
  spec: { type: 'string', help: 'the fault spec (schemas/fault-spec.schema.json): the target control, its pages, its write, the success answer' },
  layer: { type: 'string', help: 'a layer of the table in use (the proxy\'s own: baseline, access, perception, action, state, verification); default with --transport alone: baseline' },
  severity: { type: 'string', help: '0 for a layer without rules (baseline), else 1, 2 or 3' },
  also: { type: 'string', help: 'a compound condition\'s second layer, LAYER:SEVERITY (state:2), on top of --layer; neither baseline, at most one of them answering the write' },
  transport: { type: 'string', help: 'a transport fault by name, from the table in use (the proxy\'s own: document-error, write-error, lost-response, asset-error, popup, …; --list prints them)' },
  'transport-severity': { type: 'string', default: '1', help: 'the transport fault\'s severity: 1, 2 or 3' },
  'transport-table': { type: 'string', help: 'a transport table of your own (schemas/fault-transport.schema.json, the shape of faults/transport.json); --transport names one of its faults' },
  'layer-table': { type: 'string', help: 'a layer table of your own (schemas/fault-layers.schema.json, the shape of faults/layers.json); --layer and --also name its layers' },
  seed: { type: 'string', default: 'fault-proxy', help: 'the condition\'s seed (where the decoys stand, which error status of several)' },
  port: { type: 'string', default: '8600', help: 'the port on 127.0.0.1 (0: any free one)' },
  https: { type: 'boolean', default: false, help: 'intercept HTTPS with a CA made for this proxy (its key 0600 in the state folder)' },
  hosts: { type: 'string', help: 'hosts to forward to besides loopback, comma-separated (staging.example.com,*.example.com)' },
  'upstream-ca': { type: 'string', help: 'PEM files the proxy trusts for your app\'s own HTTPS (a self-signed certificate), comma-separated' },
} as const satisfies Record<string, Flag>;

const ownOptions = {
  events: { type: 'string', help: 'write each request it saw as a JSON line (schemas/proxy-event.schema.json) to this file (with --state: DIR/events.jsonl)' },
  state: { type: 'string', help: 'a state folder (pid, log, events, state file, CA): the background service\'s; messages go to its log' },
  list: { type: 'boolean', default: false, help: 'print the layers and transport faults of the tables in use, with their severities, and exit' },
  help: { type: 'boolean', default: false, help: 'show this help' },
} as const satisfies Record<string, Flag>;

export const messages = {
  layerRequired: (layers: readonly string[]) => `--layer is required (or --transport NAME alone, on the baseline): ${layers.join(', ')}`,
  unknownLayer: (option: string, name: string, table: string, layers: readonly string[]) => `${option} ${JSON.stringify(name)} is not a layer of ${table}; its layers are ${layers.join(', ')}`,
  badAlso: (value: string) => `--also takes LAYER:SEVERITY, a second layer at 1, 2 or 3 (state:2), not ${JSON.stringify(value)}`,
  unknownTransport: (name: string, table: string, names: readonly string[]) => `--transport ${JSON.stringify(name)} is not a fault of ${table}; its faults are ${names.join(', ')}`,
};

/** The condition of a running service in one line: family, layer(s), transport fault, seed. */
export function describeCondition(s: ServiceState): string {
  const also = s.also ? ` + ${s.also.layer} ${s.also.severity}` : '';
  const transport = s.transport ? `, transport ${s.transport.fault} ${s.transport.severity}${s.transport.table ? ` (${s.transport.table})` : ''}` : '';
  return `${s.family}, layer ${s.layer}, severity ${s.severity}${also}${transport}${s.layer_table ? ` (layers of ${s.layer_table})` : ''}, seed ${s.seed}`;
}

/** How a browser reaches the proxy: the flags for Chromium, the preferences for Firefox. */
export function browserFlags(s: Pick<ServiceState, 'url' | 'port' | 'ca'>): string[] {
  const spki = s.ca ? ` --ignore-certificate-errors-spki-list=${s.ca.spki}` : '';
  return [
    `  Chromium: chromium --proxy-server=${s.url} '--proxy-bypass-list=<-loopback>'${spki}`,
    `  Firefox:  network.proxy.type=1, network.proxy.http and .ssl=127.0.0.1, .http_port and .ssl_port=${s.port}, network.proxy.allow_hijacking_localhost=true${s.ca ? `; the CA into the profile: certutil -A -d sql:PROFILE -n fault-proxy -t C,, -i ${s.ca.certPath}` : ''}`,
    ...(s.ca ? [`  CA: ${s.ca.certPath}   SPKI: ${s.ca.spki}`] : []),
  ];
}

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export interface ConditionValues {
  spec?: string; layer?: string; severity?: string; seed?: string;
  also?: string; transport?: string; 'transport-severity'?: string; 'transport-table'?: string; 'layer-table'?: string;
}

/** A table file a flag names: checked against its schema; a missing file is a usage error. */
function tableFile<T>(flag: string, file: string | undefined, read: (file: string) => T): T | undefined {
  if (file === undefined) return undefined;
  if (!fs.existsSync(file)) throw new UsageError(`--${flag} ${file}: no such file`);
  return read(path.resolve(file));
}

/**
 * The condition the flags describe, checked (the spec, the layers and severities against the layer
 * table in use, the transport fault against the transport table in use, the plan they make
 * together): exit 2 on anything malformed, nothing started. Every name is a key of a table, never
 * one of a list in the code.
 */
export function conditionOf(values: ConditionValues): {
  condition: Condition & { spec: ReturnType<typeof readFaultSpec> };
  transportTable: FaultTransport | undefined;
  layerTable: FaultLayers | undefined;
} {
  if (!values.spec) throw new UsageError('--spec FILE is required');
  if (!fs.existsSync(values.spec)) throw new UsageError(`--spec ${values.spec}: no such file`);
  const layers = tableFile('layer-table', values['layer-table'], readLayerTable);
  const layersIn = layers ?? layerTable();
  const layersShown = values['layer-table'] ?? shownFile(layerTableFiles.current);
  const names = layerNames(layersIn);
  const checkLayerName = (option: string, name: string) => {
    if (!names.includes(name)) throw new UsageError(messages.unknownLayer(option, name, layersShown, names));
    return name;
  };
  // a transport fault alone runs on the baseline: no layer fault beside it
  const baseline = names.find((n) => layersIn.layers[n]!.rules.length === 0) ?? null;
  const layer = values.layer ? checkLayerName('--layer', values.layer) : values.transport ? baseline : null;
  if (layer === null) throw new UsageError(messages.layerRequired(names));
  const severities = severitiesOf(layersIn, layer);
  const severity = values.severity ?? (severities.length === 1 ? String(severities[0]) : undefined);
  if (severity === undefined || !severities.map(String).includes(severity)) throw new UsageError(`--severity takes ${severities.join(', ')} for layer ${layer}, not ${JSON.stringify(severity ?? '')}`);
  let also: Condition['also'];
  if (values.also !== undefined) {
    const m = /^([a-z][\w-]*):([1-3])$/.exec(values.also);
    if (!m) throw new UsageError(messages.badAlso(values.also));
    also = { layer: checkLayerName('--also', m[1]!), severity: Number(m[2]) as Severity };
  }
  const transports = tableFile('transport-table', values['transport-table'], readTransportTable);
  let transport: Condition['transport'];
  if (values.transport !== undefined) {
    const faults = transportFaultNames(transports ?? transportTable());
    if (!faults.includes(values.transport)) throw new UsageError(messages.unknownTransport(values.transport, values['transport-table'] ?? shownFile(transportTableFile), faults));
    const ts = values['transport-severity'] ?? '1';
    if (!/^[1-3]$/.test(ts)) throw new UsageError(`--transport-severity takes 1, 2 or 3, not ${JSON.stringify(ts)}`);
    transport = { fault: values.transport, severity: Number(ts) as 1 | 2 | 3 };
  } else if (values['transport-table'] !== undefined) {
    throw new UsageError('--transport-table names the table --transport NAME reads: give --transport too');
  }
  const spec = readFaultSpec(values.spec);
  const condition = { spec, layer, severity: Number(severity) as Severity, seed: values.seed ?? 'fault-proxy', ...(also ? { also } : {}), ...(transport ? { transport } : {}) };
  planFor(condition, layersIn, transports);
  return { condition, transportTable: transports, layerTable: layers };
}

/** The tables' names, with what each does and its severities: what --list prints. */
export function listFaults(layers: FaultLayers = layerTable(), transports: FaultTransport = transportTable()): string {
  const lines = ['layers (--layer NAME --severity S; --also NAME:S for a compound pair):'];
  for (const name of layerNames(layers)) lines.push(`  ${name.padEnd(16)} severity ${severitiesOf(layers, name).join(', ')}: ${layers.layers[name]!.does}`);
  lines.push('transport faults (--transport NAME --transport-severity S):');
  for (const name of transportFaultNames(transports)) lines.push(`  ${name.padEnd(16)} severity 1, 2, 3 on ${transports.faults[name]!.match}: ${transports.faults[name]!.does}`);
  return lines.join('\n');
}

function helpText(): string {
  const lines = [
    'rstackbench-fault-proxy: a fault proxy on 127.0.0.1 between a browser and your web app; one condition until it is stopped (Ctrl-C)',
    '',
    'usage: rstackbench-fault-proxy --spec spec.json --layer state --severity 2 [--also access:1] [--transport lost-response [--transport-severity 1]] [--seed s] [--port 8600]',
    '       rstackbench-fault-proxy --spec spec.json --transport write-error --transport-severity 2     (a transport fault alone, on the baseline)',
    '       rstackbench-fault-proxy --list [--layer-table my-layers.json] [--transport-table my-transport.json]',
    '',
    'options:',
  ];
  for (const [key, spec] of Object.entries({ ...conditionOptions, ...ownOptions } as Record<string, Flag>)) {
    const flag = `--${key}${spec.type === 'string' ? ' VALUE' : ''}`;
    lines.push(`  ${flag.padEnd(26)} ${spec.help}${spec.default !== undefined && spec.type === 'string' ? ` (default: ${spec.default})` : ''}`);
  }
  return lines.join('\n');
}

function portOf(value: string | undefined): number {
  const n = Number(value ?? '8600');
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port takes a port number (0: any free one), not ${JSON.stringify(value)}`);
  return n;
}

/** Runs the command: parses argv, serves until SIGTERM/SIGINT; resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...conditionOptions, ...ownOptions }, strict: true, allowPositionals: false }));
  } catch (cause) {
    throw new UsageError(`${(cause as Error).message.split('\n')[0]} (rstackbench-fault-proxy --help lists the options)`, cause);
  }
  if (values.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  if (argv.length === 0) throw new UsageError(`a fault spec and a condition, at least: rstackbench-fault-proxy --spec spec.json --layer state --severity 2 (--list: every fault by name; --help: every option)`);
  if (values.list) {
    process.stdout.write(`${listFaults(tableFile('layer-table', values['layer-table'], readLayerTable), tableFile('transport-table', values['transport-table'], readTransportTable))}\n`);
    return 0;
  }
  const files = values.state ? serviceFiles(values.state) : null;
  const say = files
    ? (message: string) => fs.appendFileSync(files.log, `${new Date().toISOString()} ${message}\n`)
    : (message: string) => process.stderr.write(`${message}\n`);
  const { condition, transportTable: transports, layerTable: layers } = conditionOf(values);
  const eventsFile = files?.events ?? values.events;
  if (files && fs.existsSync(files.events)) fs.renameSync(files.events, files.previousEvents);
  const events = eventsFile ? fs.openSync(eventsFile, 'w') : null;
  const proxy = await startFaultProxy({
    transportTable: transports,
    layerTable: layers,
    https: values.https,
    stateDir: values.state,
    port: portOf(values.port),
    hosts: list(values.hosts),
    upstreamCA: list(values['upstream-ca']),
    onEvent: events === null ? undefined : (event) => fs.writeSync(events, `${JSON.stringify(event)}\n`),
  });
  proxy.load(condition);
  const state: ServiceState = {
    pid: process.pid, url: proxy.url, port: proxy.port, ca: proxy.ca, spec: path.resolve(values.spec!), family: condition.spec.spec.family,
    layer: condition.layer, severity: condition.severity, also: condition.also ?? null,
    transport: condition.transport ? { ...condition.transport, table: values['transport-table'] ? path.resolve(values['transport-table']) : null } : null,
    layer_table: values['layer-table'] ? path.resolve(values['layer-table']) : null,
    seed: condition.seed, started_at: new Date().toISOString(),
  };
  if (files) {
    fs.writeFileSync(`${files.state}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
    fs.renameSync(`${files.state}.tmp`, files.state);
  } else {
    process.stdout.write(`${[`fault proxy: ${proxy.url} (${describeCondition(state)})`, ...(eventsFile ? [`  events: ${eventsFile}`] : []), ...browserFlags(state), '  Ctrl-C stops it (held writes are cancelled, never sent)'].join('\n')}\n`);
  }
  say(`listening on ${proxy.url}: ${describeCondition(state)}`);
  let reported: unknown = null;
  const watch = setInterval(() => {
    if (proxy.failure && proxy.failure !== reported) say(`failure: ${(reported = proxy.failure).message}`);
  }, 1_000);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clearInterval(watch);
  const cancelled = (await proxy.reset().catch((error: Error) => { say(`stopping: ${error.message}`); return []; })).filter((e) => e.action === 'cancelled').length;
  await proxy.close();
  if (events !== null) fs.closeSync(events);
  if (files) fs.rmSync(files.state, { force: true });
  say(`stopped${cancelled ? `; ${cancelled} held write${cancelled === 1 ? '' : 's'} cancelled, never sent` : ''}`);
  return 0;
}

/** Whether this file is the script node was started with (through a symlink too: npm's bin). */
function isMain(): boolean {
  if (process.argv[1] === undefined) return false;
  try {
    return pathToFileURL(fs.realpathSync(process.argv[1])).href === import.meta.url;
  } catch {
    return fileURLToPath(import.meta.url) === process.argv[1];
  }
}

if (isMain()) {
  try {
    process.exitCode = await run(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`rstackbench-fault-proxy: ${error instanceof RStackError ? error.message : (error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = error instanceof RStackError ? error.exitCode : 1;
  }
}
