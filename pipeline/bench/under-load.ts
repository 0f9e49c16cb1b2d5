// rstackbench under-load: runs a command while a CPU hog takes every core (cpu-hog.ts), then stops
// the hog: the load trial of a run target that the bench's slices do not hold (an Arm B smoke run
// against its WordPress site, for one). The hog starts before the command and is killed when it
// ends, on every exit path; the command's exit code is ours.
//
//   rstackbench under-load [--seconds 1800] -- make run-arm-b ARGS="--smoke --workers 2 --browsers 2"
import os from 'node:os';
import { main, intOption, splitAtDash } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { UsageError } from '../../core/errors.ts';
import { runInherited } from '../../core/command.ts';
import { startCpuHog } from './cpu-hog.ts';

const { own, command } = splitAtDash();

await main({
  name: 'rstackbench under-load',
  summary: 'run a command while one busy-looping process per core loads the machine (a load trial), then stop them',
  usage: 'rstackbench under-load [--seconds N] [--processes N] -- COMMAND [ARGS…]',
  options: {
    seconds: { type: 'string', default: '1800', help: 'the most the hog runs: it ends by itself then, even if the command has not' },
    processes: { type: 'string', help: `busy-looping processes (default: one per core, ${os.cpus().length} here)` },
  },
  async run(values, positionals) {
    if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}: the command comes after --`);
    if (command.length === 0) throw new UsageError('no command: rstackbench under-load [--seconds N] -- COMMAND [ARGS…]');
    const seconds = intOption(values.seconds, 'seconds', 1800, 1);
    const processes = values.processes === undefined ? os.cpus().length : intOption(values.processes, 'processes', os.cpus().length, 1);
    const hog = startCpuHog({ processes, maxSeconds: seconds });
    log({ kind: 'info', message: `under-load: ${hog.pids.size} busy-looping process${hog.pids.size === 1 ? '' : 'es'} (at most ${seconds} s) beside ${command.join(' ')}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}` });
    try {
      return await runInherited(command);
    } finally {
      hog.stop();
      log({ kind: 'info', message: `under-load: the hog stopped; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}` });
    }
  },
}, own);
