// make check-families: the real applications' task families checked before their conditions are
// frozen (pipeline/layers/real-apps/check-families.ts): the static checks, then, with both apps
// started from their seeded snapshot (started here unless running, stopped after), each variant's
// postcondition on a fresh restore against its `seeded`. make freeze runs the same when it freezes
// real-application conditions that are new or changed.
// Reads: fixtures/<app>/families/*.json, the apps' databases. Writes: nothing.
import { main } from '../../core/cli.ts';
import { CheckError } from '../../core/errors.ts';
import { checkFamilies } from '../layers/real-apps/check-families.ts';

await main({
  name: 'make check-families',
  summary: "check the real applications' task families: schema, app case, variants, fault specs, the postcondition's .sql and functions, and (both apps started) each postcondition's value on a fresh restore against its seeded value",
  usage: 'make check-families [ARGS=--static]',
  options: { static: { type: 'boolean', default: false, help: 'only the checks that need no app running' } },
  async run(values) {
    const problems = await checkFamilies({ live: !values.static });
    if (problems) throw new CheckError(problems);
    process.stdout.write(`families: OK (${values.static ? 'static checks' : 'static checks, and every postcondition on a fresh restore'})\n`);
  },
});
