// The vocabulary of study `layers`, shared by its task generator, its apps, its policies and the
// analysis: the types come from schemas/layers-task.schema.json (core/contracts.ts); the orders
// here are the papers' (not alphabetical).
import type { LayersTask } from './contracts.ts';

export type { Entity, LayersTask } from './contracts.ts';
export type Template = LayersTask['template'];
export type Layer = LayersTask['layer'];
export type Faults = LayersTask['faults'];

export const templates: readonly Template[] = ['cards', 'profile', 'modal'];
export const layers: readonly Layer[] = ['baseline', 'access', 'perception', 'action', 'state', 'verification'];
