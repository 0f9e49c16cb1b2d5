// A stand-in for a pipeline script, for the dispatcher's tests: does what its flags say and no more.
//   --exit N         exit with code N
//   --append FILE    append one line to FILE under the data root (RSTACK_ROOT) first
//   --wait           print "ready PID" and wait to be signalled
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root } from '../../core/paths.ts';

const { values } = parseArgs({ options: { exit: { type: 'string' }, append: { type: 'string' }, wait: { type: 'boolean' } } });
if (values.append) {
  const file = path.join(root(), values.append);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, '{}\n');
}
if (values.wait) {
  process.stdout.write(`ready ${process.pid}\n`);
  setInterval(() => {}, 1000); // until a signal ends us
} else {
  process.exitCode = Number(values.exit ?? 0);
}
