// @rstackbench/fault-proxy: a fault proxy between a browser and any web app (README.md). Start one
// per worker, load a condition, read its log (and, with `har`, a trimmed HAR of its traffic).
// Faults are data: layers (faults/layers.json) and transport faults (faults/transport.json), or
// tables of your own in their shape (schemas/), checked against the schemas it ships.
export { startFaultProxy, DRAIN_LIMIT_MS, type FaultProxy, type FaultProxyOptions, type ProxyEvent } from './proxy.ts';
export { type Har, type HarEntry } from './har.ts';
export { compileSpec, readFaultSpec, type CompiledSpec, type FaultSpec } from './spec.ts';
export { planFor, layerTable, layerTableFiles, layerNames, severitiesOf, readLayerTable, faultsFolder, type Condition, type Layer, type LayerTableName, type Plan, type PageFault, type Severity } from './plan.ts';
export { transportFaultNames, transportTable, readTransportTable, checkTransportTable, transportPlanFor, fires, errorPage, type TransportFaultName, type TransportPlan, type TransportCondition, type TransportEffect } from './transport.ts';
export { conditionOf, conditionOptions, describeCondition, browserFlags, listFaults, serviceFiles, type ConditionValues, type ServiceState } from './cli.ts';
export { RStackError, ProxyError, ValidationError, UsageError } from './errors.ts';
export { rng, type Rng } from './random.ts';
export { validate, schemaFolder, type ProxySchema } from './validate.ts';
export type { FaultLayers, FaultLayer, FaultRule, FaultTransport, TransportFault, TransportFire } from './contracts.ts';
