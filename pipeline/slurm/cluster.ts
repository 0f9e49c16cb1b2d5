// A one-node Slurm cluster on this machine, for make test and for trying the Slurm path before a real
// cluster: Debian's slurm-wlm and munge, as root, without systemd or cgroups, every file in one state
// folder of its own, listening on 127.0.0.1 only. Its three daemons are core/service.ts services:
//
//   state folder ─▶ a munge key of its own ─▶ munged (as the munge user: it refuses root) on a socket
//   in the folder ─▶ slurm.conf: this machine's node line from `slurmd -C`, proctrack/linuxproc,
//   task/none, no accounting, cons_tres by CPU (tasks share the node) ─▶ slurmctld, slurmd (-D: they
//   stay our children's children, pid files of ours) ─▶ ready when sinfo shows the node idle
//   stop: every job of the cluster cancelled and gone ─▶ slurmd, slurmctld, munged by their pid files
//
// Commands reach it through SLURM_CONF=<state>/slurm.conf (clusterEnv). Starting it twice, or over a
// cluster whose daemons still run, is refused; stop leaves nothing of it running.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ServiceError, RStackError } from '../../core/errors.ts';
import { runCommand } from '../../core/command.ts';
import { assertPortFree, ensureStateFolder, logTail, runningPid, spawnDetached, stopService, waitUntilReady, type Service } from '../../core/service.ts';
import { messages } from '../../core/messages.ts';
import { installDebianPackages } from '../../fixtures/wordpress/install.ts';

export const slurmPackages = ['slurm-wlm', 'munge'] as const;

/** Installs Debian's slurm-wlm and munge when missing (as root; no daemon is started on install). */
export const installSlurm = (who: string) => installDebianPackages(slurmPackages, who);

export interface Cluster {
  state: string;
  /** slurmctld's and slurmd's ports (127.0.0.1) */
  ports: { slurmctld: number; slurmd: number };
  conf: string;
  munged: Service;
  slurmctld: Service;
  slurmd: Service;
}

/** The cluster of a state folder (ports: where a start listens; a stop needs none). */
export function cluster(state: string, ports: { slurmctld: number; slurmd: number } = { slurmctld: 6817, slurmd: 6818 }): Cluster {
  const dir = path.resolve(state);
  const service = (comm: string): Service => ({ name: `slurm-cluster: ${comm}`, comm, pidFile: path.join(dir, `${comm}.pid`), logFile: path.join(dir, 'log', `${comm}.log`) });
  // munged daemonizes and writes its own pid file and log, in the folder of its socket (the munge user's)
  const munged: Service = { name: 'slurm-cluster: munged', comm: 'munged', pidFile: path.join(dir, 'munge', 'munged.pid'), logFile: path.join(dir, 'munge', 'munged.log') };
  return { state: dir, ports, conf: path.join(dir, 'slurm.conf'), munged, slurmctld: service('slurmctld'), slurmd: service('slurmd') };
}

/** The environment Slurm's commands (sbatch, squeue, scancel, scontrol) need to reach the cluster. */
export const clusterEnv = (c: Pick<Cluster, 'conf'>) => ({ SLURM_CONF: c.conf });

const mungeSocket = (c: Cluster) => path.join(c.state, 'munge', 'munge.socket');

/** The munge user's uid and gid (Debian's munge package makes it). */
function mungeUser(): { uid: number; gid: number } {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('munge:'));
  if (!line) throw new RStackError(messages.slurm.noMungeUser(), { exitCode: 2 });
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** This machine's node line as slurmd sees it (CPUs, sockets, cores, memory), without the uptime. */
async function nodeLine(): Promise<string> {
  const out = await runCommand('slurmd', ['-C']);
  const line = out.split('\n').find((l) => l.startsWith('NodeName='));
  if (!line) throw new ServiceError('slurm-cluster', `slurmd -C printed no NodeName= line:\n${out}`);
  return line.replace(/\s+UpTime=\S+/, '');
}

/** The cluster's slurm.conf: everything in the state folder, the daemons on 127.0.0.1 and the given ports. */
export function slurmConf(c: Cluster, node: string): string {
  const host = os.hostname();
  return [
    '# written by rstackbench pipeline/slurm/cluster.ts: a one-node cluster on 127.0.0.1',
    'ClusterName=rstackbench',
    `SlurmctldHost=${host}(127.0.0.1)`,
    `SlurmctldPort=${c.ports.slurmctld}`,
    `SlurmdPort=${c.ports.slurmd}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${mungeSocket(c)}`,
    `StateSaveLocation=${path.join(c.state, 'slurmctld-state')}`,
    `SlurmdSpoolDir=${path.join(c.state, 'slurmd-spool')}`,
    // the daemons' own pid files, beside ours (which the stop reads)
    `SlurmctldPidFile=${path.join(c.state, 'slurmctld.own.pid')}`,
    `SlurmdPidFile=${path.join(c.state, 'slurmd.own.pid')}`,
    `SlurmctldLogFile=${c.slurmctld.logFile}`,
    `SlurmdLogFile=${c.slurmd.logFile}`,
    // no systemd, no cgroups: processes tracked by their parents, tasks not bound
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'JobCompType=jobcomp/none',
    'MpiDefault=none',
    'SwitchType=switch/none',
    // jobs share the node by CPU: a 2-CPU machine runs two 1-CPU tasks at once
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    // a job starts as soon as it can (no backfill pass to wait for)
    'SchedulerType=sched/builtin',
    'ReturnToService=2',
    // a cancelled task gets TERM, and KILL 5 s later (Slurm's default is 30 s)
    'KillWait=5',
    // ended jobs stay visible to squeue for 10 minutes (there is no accounting to ask after)
    'MinJobAge=600',
    `${node} NodeAddr=127.0.0.1 State=UNKNOWN`,
    'PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

const running = (c: Cluster) => [c.munged, c.slurmctld, c.slurmd].filter((s) => runningPid(s) !== null);

/** Starts the cluster: munged, slurmctld, slurmd; resolves when its node is idle. A failure stops what it started. */
export async function startCluster(c: Cluster, options: { timeoutMs?: number } = {}): Promise<void> {
  if (process.getuid?.() !== 0) throw new RStackError(messages.slurm.clusterNeedsRoot(), { exitCode: 2 });
  const already = running(c);
  if (already.length) throw new RStackError(messages.slurm.clusterRunning(c.state, already.map((s) => `${s.comm} (pid ${runningPid(s)})`)), { exitCode: 2 });
  for (const [name, port] of Object.entries(c.ports)) await assertPortFree(`slurm-cluster: ${name}`, port, messages.slurm.portHint());
  const timeoutMs = options.timeoutMs ?? 30_000;
  const munge = mungeUser();
  ensureStateFolder(c.state);
  for (const sub of ['log', 'slurmctld-state', 'slurmd-spool']) ensureStateFolder(path.join(c.state, sub));
  // munged checks its folders: the socket's readable by all, the key's by the munge user alone
  const socketDir = ensureStateFolder(path.join(c.state, 'munge'));
  const keyDir = ensureStateFolder(path.join(c.state, 'munge-key'), 0o700);
  for (const d of [socketDir, keyDir]) fs.chownSync(d, munge.uid, munge.gid);
  fs.chmodSync(keyDir, 0o700);
  const key = path.join(keyDir, 'munge.key');
  if (!fs.existsSync(key)) fs.writeFileSync(key, crypto.randomBytes(1024), { mode: 0o400 });
  fs.chownSync(key, munge.uid, munge.gid);
  fs.writeFileSync(c.conf, slurmConf(c, await nodeLine()));

  const started: Service[] = [];
  try {
    // munged refuses to run as root: setpriv becomes the munge user and execs it; it daemonizes, writing its pid file
    spawnDetached(c.munged, 'setpriv', ['--reuid', String(munge.uid), '--regid', String(munge.gid), '--clear-groups', 'munged',
      `--socket=${mungeSocket(c)}`, `--key-file=${key}`, `--pid-file=${c.munged.pidFile}`, `--seed-file=${path.join(keyDir, 'munged.seed')}`, `--log-file=${c.munged.logFile}`]);
    started.push(c.munged);
    await waitUntilReady(c.munged.name, 'listening on its socket', () => fs.existsSync(mungeSocket(c)) && runningPid(c.munged) !== null, { timeoutMs, lastSeen: () => logTail(c.munged.logFile) });
    const env = { ...process.env, ...clusterEnv(c) };
    const ctld = spawnDetached(c.slurmctld, 'slurmctld', ['-D', '-f', c.conf], { writePid: true, env });
    started.push(c.slurmctld);
    await waitUntilReady(c.slurmctld.name, 'answering', async () => /is UP/.test(await runCommand('scontrol', ['ping'], { env }).catch(() => '')), { timeoutMs, exited: ctld.exited, lastSeen: () => logTail(c.slurmctld.logFile) });
    const d = spawnDetached(c.slurmd, 'slurmd', ['-D', '-f', c.conf], { writePid: true, env });
    started.push(c.slurmd);
    await waitUntilReady(c.slurmd.name, 'its node idle', async () => /^idle/m.test(await runCommand('sinfo', ['-h', '-N', '-o', '%T'], { env }).catch(() => '')), {
      timeoutMs, exited: d.exited, lastSeen: () => logTail(c.slurmd.logFile),
    });
  } catch (error) {
    for (const s of started.reverse()) await stopService(s, { graceMs: 5000 }).catch(() => undefined);
    throw error;
  }
}

/** Every job the cluster knows that has not ended (array tasks one by one). */
async function liveJobs(c: Cluster): Promise<string[]> {
  const out = await runCommand('squeue', ['-h', '-r', '-o', '%i'], { env: { ...process.env, ...clusterEnv(c) } });
  return out.split('\n').map((l) => l.trim()).filter(Boolean);
}

/**
 * Stops the cluster: cancels its jobs and waits until none is left (their processes are slurmd's
 * children, which a stop of slurmd would leave behind), then slurmd, slurmctld and munged by their pid
 * files. Returns what it stopped; a cluster that is not running is nothing to stop.
 */
export async function stopCluster(c: Cluster, options: { timeoutMs?: number } = {}): Promise<string[]> {
  const stopped: string[] = [];
  if (runningPid(c.slurmctld) !== null && fs.existsSync(c.conf)) {
    const env = { ...process.env, ...clusterEnv(c) };
    const jobs = await liveJobs(c).catch(() => []);
    if (jobs.length) {
      await runCommand('scancel', ['--full', ...new Set(jobs.map((j) => j.replace(/_.*/, '')))], { env }).catch(() => undefined);
      await waitUntilReady('slurm-cluster', 'without jobs', async () => (await liveJobs(c).catch(() => [])).length === 0, { timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 500 });
      stopped.push(`${jobs.length} job${jobs.length === 1 ? '' : 's'} cancelled`);
    }
  }
  for (const s of [c.slurmd, c.slurmctld, c.munged]) {
    const pid = await stopService(s, { graceMs: 10_000 });
    if (pid !== null) stopped.push(`${s.comm} (pid ${pid})`);
  }
  return stopped;
}
