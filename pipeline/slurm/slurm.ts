// The Slurm verbs (pipeline/verbs.json passes the action first):
//
//   rstackbench slurm [options] -- [TARGET FLAGS…]   submit: a run target, or the whole rerun, as a job
//                                                    array of N tasks and a merge job after it (submit.ts)
//   rstackbench slurm-status --data DIR [--wait]     which shards are pending, running, done, failed (status.ts)
//   rstackbench slurm-resubmit --data DIR [--wait]   the failed or missing shards again, and a merge after them
//   rstackbench slurm-merge --data DIR               what the merge job runs (merge-job.ts)
//   rstackbench slurm-cluster / slurm-cluster-stop   a one-node cluster on this machine (cluster.ts)
//
// The job scripts are deploy/slurm/shard.sbatch and deploy/slurm/merge.sbatch.
import fs from 'node:fs';
import path from 'node:path';
import { main, intOption, splitAtDash, type Command, type Option } from '../../core/cli.ts';
import { codeRoot } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { UsageError } from '../../core/errors.ts';
import { stamp } from '../kernel/run-files.ts';
import { cluster, installSlurm, startCluster, stopCluster } from './cluster.ts';
import { mergeJob } from './merge-job.ts';
import { parseTarget, slurmTargets } from './submission.ts';
import { resubmit, snapshot, submit, watch, type Snapshot } from './submit.ts';
import { statusTable } from './status.ts';

const dataOption = { data: { type: 'string', help: 'the submission\'s shared data root (what rstackbench slurm printed)' } } as const;
const waitOption = { wait: { type: 'boolean', default: false, help: 'follow it until nothing is pending or running and the merge job has ended (a line on each change); exit 0 only when the merge succeeded' } } as const;

const needData = (value: string | undefined) => {
  if (!value) throw new UsageError('--data DIR: the submission\'s shared data root (what rstackbench slurm printed)');
  return value;
};

/** After --wait: the table, and 0 when the merge job succeeded. */
function ended(snap: Snapshot): number {
  process.stdout.write(`${statusTable(snap.sub, snap.shards, snap.merge)}\n`);
  return snap.merge.state === 'done' ? 0 : 1;
}

const timeShape = /^(\d+-)?\d+(:\d{1,2}){0,2}$/;
const timeOption = (value: string, name: string) => {
  if (!timeShape.test(value)) throw new UsageError(`--${name} takes a Slurm time limit (minutes, H:MM:SS or D-HH:MM:SS), not ${JSON.stringify(value)}`);
  return value;
};

const submitOptions = {
  target: { type: 'string', help: `what every task runs its shard of: ${Object.entries(slurmTargets).map(([t, v]) => `${t} (${v.summary})`).join('; ')}` },
  shards: { type: 'string', default: '4', help: 'N: the array\'s tasks; task k runs shard k/N (units k, k+N, …)' },
  data: { type: 'string', help: 'the shared data root, on a file system every node sees: task k writes into DATA/shard-k (default: scratch/slurm-<target>-<time> in this checkout)' },
  into: { type: 'string', help: 'where the merge job writes the merged run (default: this command\'s output root, the record unless RSTACK_SCRATCH is set; reproduce: DATA/all)' },
  partition: { type: 'string', help: 'sbatch --partition (default: the cluster\'s default partition)' },
  time: { type: 'string', default: '2:00:00', help: 'each task\'s time limit (sbatch --time)' },
  'merge-time': { type: 'string', default: '0:30:00', help: 'the merge job\'s time limit' },
  'cpus-per-task': { type: 'string', default: '2', help: 'CPUs of each task (a browser and the runner)' },
  exclusive: { type: 'boolean', default: false, help: 'one task per node (sbatch --exclusive): a registered run\'s timing-sensitive outcomes follow the machine\'s load, and Arm B\'s site takes fixed ports' },
  'no-requeue': { type: 'boolean', default: false, help: 'do not let Slurm requeue a task killed by a node failure or a preemption (by default it may: the requeued task resumes its run)' },
  sbatch: { type: 'string', help: 'further sbatch flags for every job, e.g. "--account=A --qos=Q"' },
  ...waitOption,
} as const satisfies Record<string, Option>;

const commands: Record<string, Command<Record<string, Option>>> = {
  submit: {
    name: 'rstackbench slurm',
    summary: 'submit a run target, or the whole rerun, to Slurm as a job array (task k of N runs shard k/N into a data root of its own) and a job after it that merges and compares',
    usage: 'rstackbench slurm --target run-horizon [--shards 4] [--partition P] [--time 2:00:00] [--cpus-per-task 2] [--data DIR] [--wait] [-- TARGET FLAGS…]   (make slurm TARGET=run-horizon SHARDS=4)',
    options: submitOptions,
    async run(values, positionals) {
      const v = values as { [K in keyof typeof submitOptions]?: string | boolean };
      const target = parseTarget(v.target as string | undefined);
      const shards = intOption(v.shards as string, 'shards', 4);
      const data = path.resolve((v.data as string | undefined) ?? path.join(codeRoot, 'scratch', `slurm-${target}-${stamp()}`));
      const sub = await submit({
        target, args: positionals, shards, data, into: v.into as string | undefined,
        partition: (v.partition as string | undefined) ?? null,
        time: timeOption(v.time as string, 'time'), mergeTime: timeOption(v['merge-time'] as string, 'merge-time'),
        cpusPerTask: intOption(v['cpus-per-task'] as string, 'cpus-per-task', 2),
        requeue: !v['no-requeue'], exclusive: Boolean(v.exclusive),
        sbatch: ((v.sbatch as string | undefined) ?? '').split(/\s+/).filter(Boolean),
      });
      process.stdout.write(`${sub.data}\n`);
      return v.wait ? ended(await watch(sub.data)) : 0;
    },
  },
  status: {
    name: 'rstackbench slurm-status',
    summary: 'where a Slurm submission is: each shard pending, running (its rows so far), done, failed (why) or missing, and the merge job',
    usage: 'rstackbench slurm-status --data DIR [--wait]   (make slurm-status DATA=DIR)',
    options: { ...dataOption, ...waitOption },
    async run(values) {
      const data = needData(values.data as string | undefined);
      if (values.wait) return ended(await watch(data));
      const snap = await snapshot(data);
      process.stdout.write(`${statusTable(snap.sub, snap.shards, snap.merge)}\n`);
      return 0;
    },
  },
  resubmit: {
    name: 'rstackbench slurm-resubmit',
    summary: 'submit again only the shards of a Slurm submission that failed or never ran (each resumes its run), and a merge job after them',
    usage: 'rstackbench slurm-resubmit --data DIR [--wait]   (make slurm-resubmit DATA=DIR)',
    options: { ...dataOption, ...waitOption },
    async run(values) {
      const data = needData(values.data as string | undefined);
      const again = await resubmit(data);
      return values.wait && again ? ended(await watch(data)) : 0;
    },
  },
  merge: {
    name: 'rstackbench slurm-merge',
    summary: 'what the job after the array runs: the shards\' data roots collected, merged into one run (make merge) and compared with the registered run; for reproduce, the rerun merged and compared',
    usage: 'rstackbench slurm-merge --data DIR',
    options: dataOption,
    async run(values) {
      await mergeJob(needData(values.data as string | undefined));
    },
  },
  cluster: {
    name: 'rstackbench slurm-cluster',
    summary: 'start a one-node Slurm cluster on this machine (as root; Debian\'s slurm-wlm and munge, installed if missing): to try the Slurm path, and what make test runs',
    usage: 'rstackbench slurm-cluster [--state DIR] [--slurmctld-port 6817] [--slurmd-port 6818]   (make slurm-cluster)',
    options: {
      state: { type: 'string', help: 'its state folder (default: .state/slurm-cluster in this checkout)' },
      'slurmctld-port': { type: 'string', default: '6817', help: 'slurmctld\'s port on 127.0.0.1' },
      'slurmd-port': { type: 'string', default: '6818', help: 'slurmd\'s port on 127.0.0.1' },
    },
    async run(values) {
      await installSlurm('slurm-cluster');
      const c = cluster((values.state as string | undefined) ?? path.join(codeRoot, '.state', 'slurm-cluster'), {
        slurmctld: intOption(values['slurmctld-port'] as string, 'slurmctld-port', 6817), slurmd: intOption(values['slurmd-port'] as string, 'slurmd-port', 6818),
      });
      await startCluster(c);
      log({ kind: 'info', message: messages.slurm.clusterUp(c.state, c.conf) });
      process.stdout.write(`export SLURM_CONF=${c.conf}\n`);
    },
  },
  'cluster-stop': {
    name: 'rstackbench slurm-cluster-stop',
    summary: 'stop the one-node cluster slurm-cluster started: its jobs cancelled, then slurmd, slurmctld and munged by their pid files',
    usage: 'rstackbench slurm-cluster-stop [--state DIR]   (make slurm-cluster-stop)',
    options: { state: { type: 'string', help: 'its state folder (default: .state/slurm-cluster in this checkout)' } },
    async run(values) {
      const state = (values.state as string | undefined) ?? path.join(codeRoot, '.state', 'slurm-cluster');
      if (!fs.existsSync(state)) {
        log({ kind: 'info', message: messages.slurm.clusterStopped([]) });
        return;
      }
      log({ kind: 'info', message: messages.slurm.clusterStopped(await stopCluster(cluster(state))) });
    },
  },
};

const [action, ...rest] = process.argv.slice(2);
const command = action ? commands[action] : undefined;
if (!command) {
  process.stderr.write(`error: pipeline/slurm/slurm.ts takes an action first: ${Object.keys(commands).join(', ')} (bin/rstackbench passes it: rstackbench slurm, slurm-status, …)\n`);
  process.exitCode = 2;
} else {
  // submit: its own flags before --, the target's after
  const { own, command: targetArgs } = action === 'submit' ? splitAtDash(rest) : { own: rest, command: [] };
  const run = command.run;
  await main({ ...command, run: (values, positionals) => {
    if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}${action === 'submit' ? ': the target\'s flags come after --' : ''}`);
    return run(values, targetArgs);
  } }, own);
}
