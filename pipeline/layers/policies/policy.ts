// A `layers` policy: one entry point that sees the page and what the user asked for, never the
// fault label. It returns when it considers the task done (or gives up), with a claim from what it
// checked (issue 47); the runner then scores. Whether a row keeps the claim is the arm's protocol
// (policyAgent: the registered arms that predate it keep none; claimingAgent: those after it).
import type { Entity, LayersTask, Template } from '../../../core/layers.ts';
import type { Claim } from '../../agents/contract.ts';
import type { TemplateUi } from './ui.ts';
import type { AppContext } from './app.ts';

/** What a policy may know: the instruction and the requested postcondition, nothing about faults. */
export interface PolicyTask {
  template: Template;
  instruction: string;
  target: Entity;
}

export function policyView(task: LayersTask): PolicyTask {
  return { template: task.template, instruction: task.instruction, target: structuredClone(task.target) };
}

/** A small app's condition as its scripted policies see it: the reference policies read only the app's description (app.ts), the verified ones its UI too. */
export interface PolicyContext extends AppContext { task: PolicyTask; ui: TemplateUi }

/** A reference policy: written against the app's description alone, so one set serves the small apps, the real applications and transport. */
export interface LayersPolicy {
  name: string;
  run(ctx: AppContext): Promise<Claim>;
}
