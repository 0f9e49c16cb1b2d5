// The task families of the real-applications arm, as the applications' fixtures describe them
// (fixtures/<app>/families/<family>.json: the start page, the input, the fault spec, the success
// notice, the postcondition and the variants). A family that declares `app_case` is a case the
// application ships with (its false success is its own, nothing is injected): it stands in the arm
// under that layer, as the application's own case. It is declared, never inferred from its layers.
import { familyCondition, listFamilies, readFamily, type FamilyCondition, type RealApp, type RealAppFamily } from '../../../fixtures/real-app.ts';
import type { Layer } from '../../../core/layers.ts';

export type AppName = RealApp['name'];
export const appNames: readonly AppName[] = ['wordpress', 'mediawiki'];

export interface Family {
  id: string;
  app: AppName;
  data: RealAppFamily;
  /** the one layer a case the application ships with stands for; null for the families the proxy faults */
  appFault: Extract<Layer, 'verification'> | null;
}

/** Every family of both applications, in a fixed order (application, then name). */
export function readFamilies(): Family[] {
  return appNames.flatMap((app) => listFamilies(app).map((id) => {
    const data = readFamily(app, id);
    return { id, app, data, appFault: data.app_case ?? null };
  }));
}

export const variantOf = (family: Family, variant: string): FamilyCondition => familyCondition(family.data, variant);
