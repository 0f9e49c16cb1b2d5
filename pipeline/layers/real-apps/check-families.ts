// The real applications' task families, checked before their conditions are frozen (issue 47):
// a field that is declared and never run would otherwise score every row "not saved".
//
//   static (no app running; `make freeze` always runs it):
//     every family file against its schema, a declared app case only on baseline, every variant's
//     placeholders filled, its fault spec compiled by the proxy's own check, the postcondition's .sql
//     file present, its query and change count functions the app has, expected different from seeded
//   live (the apps started from their seeded snapshot; `make check-families`, and `make freeze`
//   when it freezes real-application conditions that are new or changed):
//     on a fresh restore, each variant's postcondition query runs and returns the variant's `seeded`
//
// Each problem names the file, the field and what is wrong; nothing is fixed up.
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { firstLine } from '../../../core/errors.ts';
import { compileSpec, type FaultSpec } from '../../../proxy/src/index.ts';
import { familyCondition, listFamilies, readFamily, readPostcondition, type RealApp, type RealAppFamily } from '../../../fixtures/real-app.ts';
import { layersWordpressApp } from '../../../fixtures/wordpress/layers-site.ts';
import { mediawikiApp } from '../../../fixtures/mediawiki/site.ts';
import { startSites } from '../../../fixtures/sites.ts';
import { appNames, type AppName } from './families.ts';

export interface FamilyProblem { file: string; field: string; problem: string }

const familyFile = (app: string, family: string) => `fixtures/${app}/families/${family}.json`;
const hasFunction = (app: RealApp, name: string) => typeof (app as unknown as Record<string, unknown>)[name] === 'function';

/** The shipped applications as objects (nothing started): what the families' functions are looked up on. */
export const shippedApps = (): Record<AppName, RealApp> => ({ wordpress: layersWordpressApp(), mediawiki: mediawikiApp() });

/** A family file as read: its family, or why it could not be read. */
export interface FamilyEntry { app: AppName; file: string; family: RealAppFamily | Error }

/** The shipped family files of both applications. */
export function shippedFamilies(): FamilyEntry[] {
  return appNames.flatMap((app) => listFamilies(app).map((id) => {
    try {
      return { app, file: familyFile(app, id), family: readFamily(app, id) };
    } catch (error) {
      return { app, file: familyFile(app, id), family: error as Error };
    }
  }));
}

/** Every problem the family files have that can be seen without running an app. */
export function staticFamilyProblems(apps: Record<AppName, RealApp> = shippedApps(), entries: FamilyEntry[] = shippedFamilies()): FamilyProblem[] {
  const problems: FamilyProblem[] = [];
  for (const { app, file, family } of entries) {
    const say = (field: string, problem: string) => problems.push({ file, field, problem });
    if (family instanceof Error) {
      say('(file)', firstLine(family));
      continue;
    }
    const sql = path.join(codeRoot, 'fixtures', app, family.postcondition.sql);
    if (!fs.existsSync(sql)) say('postcondition.sql', `names ${family.postcondition.sql}, which is not in fixtures/${app}/`);
    if (!hasFunction(apps[app], family.postcondition.query)) say('postcondition.query', `names ${family.postcondition.query}, which the ${app} app does not have`);
    if (family.changes && !hasFunction(apps[app], family.changes.query)) say('changes.query', `names ${family.changes.query}, which the ${app} app does not have`);
    family.variants.forEach((variant, i) => {
      const where = `variants.${i} (${variant.id})`;
      if (variant.seeded === variant.expected) say(`${where}.expected`, `equals seeded (${JSON.stringify(variant.seeded)}): every condition would hold before the agent acts`);
      try {
        const condition = familyCondition(family, variant.id);
        compileSpec(condition.spec as unknown as FaultSpec);
      } catch (error) {
        say(where, firstLine(error));
      }
    });
  }
  return problems;
}

/**
 * What the families' postconditions return on a fresh restore of each app, against their `seeded`.
 * The apps must be running (fixtures/sites.ts); each is restored first and left restored.
 */
export async function liveFamilyProblems(apps: Record<AppName, RealApp>, entries: FamilyEntry[] = shippedFamilies()): Promise<FamilyProblem[]> {
  const problems: FamilyProblem[] = [];
  for (const app of appNames) {
    const mine = entries.filter((e) => e.app === app);
    if (mine.length) await apps[app].reset();
    for (const { file, family } of mine) {
      if (family instanceof Error) continue; // the static checks name it
      for (const [i, variant] of family.variants.entries()) {
        const field = `variants.${i} (${variant.id}).seeded`;
        const condition = familyCondition(family, variant.id);
        let value: unknown;
        try {
          value = await readPostcondition(apps[app], condition);
        } catch (error) {
          problems.push({ file, field: 'postcondition', problem: `${condition.postcondition.query}(${condition.postcondition.args.join(', ')}) failed on the seeded ${app}: ${firstLine(error)}` });
          continue;
        }
        const got = value === null || value === undefined ? null : String(value);
        if (got !== variant.seeded) problems.push({ file, field, problem: `${condition.postcondition.query}(${condition.postcondition.args.join(', ')}) returns ${JSON.stringify(got)} on a fresh restore, not ${JSON.stringify(variant.seeded)}` });
      }
    }
  }
  return problems;
}

export const formatProblems = (problems: FamilyProblem[]): string => problems.map((p) => `${p.file}: ${p.field}: ${p.problem}`).join('\n');

/** The static checks, then with `live` the live ones on both apps (started unless running, stopped after); the problems as text, or null. */
export async function checkFamilies(options: { live: boolean }): Promise<string | null> {
  const fixed = staticFamilyProblems();
  if (fixed.length || !options.live) return fixed.length ? formatProblems(fixed) : null;
  const sites = await startSites(['layers-wordpress', 'mediawiki']);
  try {
    const live = await liveFamilyProblems(shippedApps());
    return live.length ? formatProblems(live) : null;
  } finally {
    await sites.stop();
  }
}
