// Every message a user reads, in one place (vega-lite's src/log/message.ts).
export const messages = {
  refreeze: 'make freeze REASON="why the frozen inputs changed"',
  noFreeze: () => `no freeze yet: manifests/ledger.jsonl is missing or empty. Freeze the preregistrations and tasks first: make freeze REASON="initial freeze"`,
  changedSinceFreeze: (files: string[]) =>
    `refusing to run: ${files.length === 1 ? 'this file differs' : 'these files differ'} from the ledger head:\n${files.map((f) => `  ${f}`).join('\n')}\n` +
    `A registered input changed after it was frozen. If the change is intended, record it as an amendment and refreeze: ${messages.refreeze}`,
  freezeUnchanged: (seq: number) => `nothing changed since ledger entry ${seq}; no entry added`,
  freezeAdded: (seq: number, count: number, head: string) => `ledger entry ${seq}: ${count} files frozen, head ${head.slice(0, 12)}`,
  tornLineMoved: (file: string, to: string) => `recovered ${file}: a torn last line (a crash mid-write) moved to ${to}`,
  verifyOk: (checks: number) => `OK (${checks} checks)`,
  verifyFailed: (count: number) => `verify failed: ${count} problem${count === 1 ? '' : 's'}`,
  // analysis: make reanalyze, make figures, make paper
  analysisOutOfDate: (dir: string, manifest: string, names: string[]) =>
    `${dir}: ${names.length} file${names.length === 1 ? ' is' : 's are'} out of date (${names.length > 4 ? names.slice(0, 4).join(', ') + `, and ${names.length - 4} more` : names.join(', ')}): ` +
    `they still match ${manifest}, but what they are made from now gives other bytes (data/raw after a run or a --redo; data/excluded, data/runs.jsonl, the ledger or prereg/ for the deviations tables). ` +
    `Next: make reanalyze figures, then make verify`,
  reanalyzeNoData: () => 'no registered rows under data/raw yet: every table is written with its columns and no rows',
  reanalyzeRead: (layers: number, layerFiles: number, evidence: number, evidenceFiles: number) =>
    `read ${layers} layers rows from ${layerFiles} file${layerFiles === 1 ? '' : 's'} and ${evidence} evidence rows from ${evidenceFiles} file${evidenceFiles === 1 ? '' : 's'}`,
  reanalyzeAgreed: (tables: number, cells: number, verdicts: number) =>
    `SQL and the TypeScript recount agree on ${cells} cells of ${tables} tables; ${verdicts} evidence verdicts recomputed from their events`,
  reanalyzeWrote: (count: number, dir: string) => `wrote ${count} files to ${dir}`,
  reanalyzeFailed: (count: number) =>
    `reanalysis failed: ${count} problem${count === 1 ? '' : 's'} (listed above); no table was written`,
  figuresWrote: (count: number, dir: string) => `rendered ${count} figures (SVG and PNG) to ${dir}`,
  figuresMissingTable: (table: string) => `figure data analysis/out/${table}.json is missing: run make reanalyze first`,
  paperWrote: (files: string[]) => `wrote ${files.join(', ')}`,
  paperMissingTable: (table: string) => `the paper needs analysis/out/${table}.json: run make reanalyze first`,
  paperUnknownPlaceholder: (where: string, text: string) => `${where}: unknown placeholder ${text}`,
  // make report (report-src/)
  reportWrote: (dir: string, b: { files: number; bytes: number; pageBytes: number; traces: number; registered: number; excluded: number; runs: number; ms: number }) =>
    `wrote ${dir}/ in ${(b.ms / 1000).toFixed(1)} s: ${b.files} files, ${(b.bytes / 1e6).toFixed(1)} MB (the opening page loads ${(b.pageBytes / 1e6).toFixed(2)} MB; each run's rows load when one of its traces is opened); ${b.traces} traces (${b.registered} registered, ${b.excluded} excluded) from ${b.runs} run files`,
  reportMissingTable: (table: string) => `the report needs analysis/out/${table}.json: run make reanalyze first`,
  // bin/rstackbench (pipeline/cli/dispatch.ts)
  cli: {
    noVerb: (list: string) => `usage: rstackbench <verb> [options]   (rstackbench <verb> --help for a verb's options)\n\n${list}`,
    unknownVerb: (verb: string, list: string) => `unknown verb ${JSON.stringify(verb)}; the verbs are:\n\n${list}`,
    /** a flag the command does not take, or one missing its value: the flag, the verb, and where its options are listed */
    badOption: (problem: string, verb: string, makeTarget: string | null) =>
      `${problem} for ${verb}; its options: npx rstackbench ${verb} --help${makeTarget ? ` (or make ${makeTarget} ARGS=--help)` : ''}`,
    noScript: (verb: string, script: string) => `verb ${verb}: its script ${script} does not exist (pipeline/verbs.json is out of date)`,
    recordChanged: (count: number, inputs: string[]) =>
      `${inputs.join(', ')} changed (${count} file${count === 1 ? '' : 's'} written, grown or moved): the tables and figures are made from ${inputs.length === 1 ? 'it' : 'them'} and no longer match.\n` +
      `Next: make reanalyze figures (or: rstackbench reanalyze && rstackbench figures), then make verify`,
  },
  // the planning pilot (pipeline/pilot/)
  pilot: {
    endpoint: 'set PILOT_BASE_URL to an OpenAI-compatible chat-completions base URL (e.g. http://127.0.0.1:11434/v1 for Ollama, ' +
      'http://127.0.0.1:8080/v1 for llama.cpp\'s server) and PILOT_MODEL to the model\'s name; PILOT_API_KEY if the server needs one',
    noEndpoint: () => `no planning endpoint: ${messages.pilot.endpoint}. ` +
      'Without any model, a published plan file can be executed instead: make run-pilot PLANS=data/plans/<run>.jsonl',
    noFrozenPlans: () => 'no frozen plans to execute: the ledger head holds no file under data/plans/. ' +
      `To make plans, ${messages.pilot.endpoint}, then make pilot-plans and make freeze; ` +
      'to re-execute a published plan file, put it under data/plans/, make freeze, then make run-pilot PLANS=data/plans/<run>.jsonl',
    plansUnfrozen: (file: string) => `refusing to run: ${file} is not in the ledger head; plans are executed only once frozen (put the file under data/plans/, then make freeze REASON="pilot plans")`,
    skipped: () => 'the planning pilot is skipped: no frozen plans here (set PILOT_BASE_URL and PILOT_MODEL, then make pilot-plans and make freeze)',
  },
  armB: {
    noManifest: (file: string) => `no production manifest at ${file}; the default one is data/tasks/arm-b/manifest.json (ARM_B_MANIFEST=path picks another)`,
    refused: (url: string, reason: 'method' | 'host') =>
      reason === 'method' ? `refused before sending: only GET requests are allowed (${url})` : `refused before sending: ${url} is not on the manifest's origin`,
    fetchFailed: (url: string, why: string) => `GET ${url} failed: ${why}. Is the site running? make production-site`,
    tooManyRedirects: (url: string) => `GET ${url}: more than 5 redirects`,
    kindMismatch: (problems: string[]) =>
      `the site does not match the sample's design; no labels written:\n${problems.map((p) => `  ${p}`).join('\n')}\n` +
      `(for the default sample: make production-site-stop, delete .state/production-site, make production-site)`,
    labelsWritten: (file: string, success: number, failure: number) => `${file}: ${success} success, ${failure} failure labels; freeze them before any run: make freeze REASON="arm-b truth labels"`,
    labelsMissing: (file: string) => `refusing to run: no truth labels at ${file}. Label the sample first (direct HTTP, no browser): make label-arm-b, then make freeze`,
    labelsStale: (file: string, manifest: string) =>
      `refusing to run: ${file} was made from another version of ${manifest} (its manifest_sha256 differs). Relabel (make label-arm-b) and freeze`,
    labelsUnfrozen: (file: string) => `refusing to run: ${file} is not in the ledger head. Freeze it before any browser telemetry exists: make freeze REASON="arm-b truth labels"`,
    manifestUnfrozen: (file: string) => `refusing to run: ${file} is not in the ledger head (a manifest outside data/tasks/ cannot be frozen). Put it under data/tasks/arm-b/ and freeze`,
    labelsAfterTelemetry: (file: string, frozenAt: string, run: string, startedAt: string) =>
      `refusing to run: ${file} was first frozen at ${frozenAt}, after ${run} had started collecting telemetry (${startedAt}); labels must be frozen before any browser telemetry exists`,
    labelsMismatchManifest: (file: string, detail: string) => `refusing to run: ${file} does not label the manifest's cases (${detail}). Relabel: make label-arm-b`,
    siteDrifted: (cases: string[]) =>
      `refusing to run: the site no longer gives the frozen labels (direct HTTP, just now):\n${cases.map((c) => `  ${c}`).join('\n')}\n` +
      `The labels describe another state of the site. Restore the site (make production-site-stop; rm -rf .state/production-site; make production-site), or label a new sample.`,
    siteDown: (origin: string) => `the production site does not answer at ${origin}. Start it: make production-site (or point ARM_B_MANIFEST at a manifest for a running site)`,
    noProtocol: () => `refusing to run: no preregistration for study evidence, arm arm-b in prereg/ (prereg/evidence-arm-b.md is v1)`,
    protocolFork: (ids: string[]) => `refusing to run: the arm-b protocol forks; more than one prereg is newest: ${ids.join(', ')}`,
    noPolicies: (file: string) => `${file}: no "## Registered policies" list of \`policy-name\` items`,
    unknownPolicy: (file: string, name: string, known: string[]) => `${file}: registers an unknown policy ${name}; known: ${known.join(', ')}`,
    superseded: (file: string, was: string, now: string) => `moved ${file} to data/excluded/: it ran under ${was}, which ${now} supersedes`,
  },
  // Arm B's WordPress sites (fixtures/wordpress/site.ts, fixtures/wordpress-editor/site.ts, fixtures/sites.ts)
  site: {
    usage: (script: string, portVar: string, port: number, stateVar: string) =>
      `usage: ${script} start|stop|status   (${portVar}, default ${port}; ${stateVar})`,
    portHint: (portVar: string) => `stop what holds it, or set ${portVar} (another port is another sample)`,
    notRunning: (origin: string) => `not running on ${origin}`,
    nothingToStop: (origin: string, state: string) => `nothing of it runs (no live process in the pid files of ${state}); nothing stopped for ${origin}`,
    stopped: (what: string, pid: number) => `stopped ${what} (pid ${pid})`,
    foreignConfig: (file: string) => `${file} exists and was not written by rstackbench; refusing to overwrite it`,
    noModPhp: () => 'mod_php is missing: apt-get install libapache2-mod-php',
    installerFailed: (file: string) => `WordPress's installer did not report success; see ${file}`,
    cleanedUp: (what: string[]) => `start failed: stopped again what this start had started (${what.join(', ')})`,
    noSession: (file: string) => `no session at ${file}: run make production-editor`,
    up: (site: string, origin: string, started: boolean) =>
      `${site}: up at ${origin}${started ? ', stopped again when the command ends (or, if another run uses it then, when the last such run ends)' : ', already running: left as it is (stopped by the last run using it only if a run started it)'}`,
    leftUp: (site: string) => `${site}: left up: another run still uses it (the last one stops it)`,
    unknownSite: (name: string, known: string[]) => `no site ${JSON.stringify(name)}; the sites are ${known.join(', ')}`,
  },
  // the fault proxy as a service (pipeline/steps/fault-proxy.ts: make fault-proxy, make fault-proxy-stop; the
  // package's own messages, of its command line, are in proxy/src/cli.ts)
  proxy: {
    running: (pid: number, url: string) => `a fault proxy runs already (pid ${pid}, ${url}); stop it first: make fault-proxy-stop`,
    portHint: () => 'stop what holds it, or give another port: ARGS="--port 8601" (0: any free one)',
    stopped: (pid: number, events: string) => `fault proxy (pid ${pid}) stopped; held writes it had not forwarded were cancelled, never sent; its events: ${events}`,
    nothingToStop: (state: string) => `no fault proxy runs from ${state} (no live process in its pid file); nothing stopped`,
    notRunning: () => 'no fault proxy runs (make fault-proxy SPEC=… LAYER=… SEVERITY=… starts one)',
  },
  // every run (pipeline/kernel/run.ts)
  runStart: (label: string, total: number, done: number, workers: number, file: string, smoke: boolean) =>
    `${label}: ${total} rows, ${done ? `${done} already written (resuming), ` : ''}${workers} worker${workers > 1 ? 's' : ''} → ${file}${smoke ? ' (smoke: not registered)' : ''}`,
  runComplete: (label: string, total: number, file: string) =>
    `${label}: all ${total} rows already written (${file}): nothing to run, nothing recorded`,
  onlyNeedsSmoke: () => '--only selects a slice, which is a smoke run: add --smoke',
  noUnitMatches: (only: string | undefined, shard: string | undefined) => `no condition matches${only ? ` --only ${only}` : ''}${shard ? ` --shard ${shard}` : ''}`,
  unknownOnlyIds: (only: string, unknown: string[]) =>
    `--only ${only}: ${unknown.length === 1 ? 'this alternative matches' : 'these alternatives match'} no condition of the arm: ${unknown.join(', ')}; nothing was run (fix or drop ${unknown.length === 1 ? 'it' : 'them'})`,
  // a user's own agent or app, not registered (pipeline/kernel/user-run.ts)
  userRunStart: (folder: string) =>
    `not a registered run: its rows, logs and run log go under ${folder}/ (git-ignored; never data/ or manifests/; RSTACK_SCRATCH=DIR writes elsewhere)`,
  userRunEnd: (folder: string) =>
    `this run's files: ${folder}/ (registering your agent is its own step: docs/score-your-agent.md#register-your-agent)`,
  agentFailuresStop: (count: number, last: string, stderrTail: string) =>
    `stopped after ${count} consecutive conditions whose agent gave no claim (the last: ${last})${stderrTail ? `; the end of its stderr: ${stderrTail}` : ''}; ` +
    'the rows so far are kept and the same command resumes; --max-agent-failures N (0: never stop) sets the limit',
  evidenceWorkersCap: (arm: string, workers: number, most: number, source: string) =>
    `--workers ${workers}: a registered ${arm} run takes at most ${most} row${most > 1 ? 's' : ''} at once (${source}); a --smoke run may take more`,
  evidenceRowsPerBrowser: (arm: string, workers: number, browsers: number, perBrowser: number, source: string) =>
    `--workers ${workers} --browsers ${browsers}: a registered ${arm} run takes at most ${perBrowser} row${perBrowser > 1 ? 's' : ''} at once in each browser process (${source}); give --browsers ${Math.ceil(workers / perBrowser)}`,
  firefoxLeanNotRegistered: (arm: string) =>
    `FIREFOX_TRIAL_PATH=lean: no frozen amendment lets a registered ${arm} run take Firefox's lean path (issue 38: adopted only where reruns agree with the registered rows within Firefox's own spread); ` +
    'unset it for the registered path (playwright), or use it with --smoke or make reproduce REDO=1, which write nothing into the record',
  registeredRunBusy: (sessions: string[]) =>
    `refusing to start a registered run while another one runs (${sessions.join(', ')}): outcomes near a timing boundary follow the machine's load. Wait for it, or shard one run with --shard i/n`,
  // one writer per run slot (pipeline/kernel/run-lock.ts)
  runLock: {
    busy: (slot: string, holder: { pid: number; host: string; started_at: string; command: string } | null, file: string) =>
      `refusing to write ${slot}: ${holder ? `another process writes it: pid ${holder.pid} on host ${holder.host} (since ${holder.started_at}: ${holder.command})` : `another process holds its lock (${file}) and has not said who it is yet`}. ` +
      'One process writes a run at a time; nothing was written. Once that process has ended (a killed one frees it at once), the same command resumes the run',
    noFlock: (why: string) => `cannot lock the run: util-linux flock is needed (${why}); it is in Debian's util-linux package`,
    failed: (file: string, status: number | null, signal: string | null, stderr: string) =>
      `cannot lock the run: flock on ${file} ${signal ? `was killed by ${signal}` : `exited with code ${status}`}${stderr ? `: ${stderr}` : ''}`,
  },
  /** a write that failed during a run (a full disk): what, the rows safely on disk, and that the same command resumes after them */
  runWriteFailed: (what: string, reason: string, runFile: string, rows: number, total: number, alsoUnwritten: string[]) =>
    `${reason} writing ${what === runFile ? 'the run file' : what}: ${rows} of ${total} rows are safely in ${runFile}, and the same command resumes after them once there is room` +
    `${alsoUnwritten.length ? ` (not written either: ${alsoUnwritten.join(', ')})` : ''}`,
  runCancelled: (signal: string, rows: number, total: number, file: string, inFlight: number) =>
    `cancelled by ${signal}: ${rows} of ${total} rows on disk in ${file}; ${inFlight ? `the ${inFlight} unit${inFlight === 1 ? '' : 's'} in flight not scored, ` : ''}kept as one cancelled attempt in data/excluded/; the same command resumes`,
  attemptFailed: (id: string, attempt: number, error: string) => `${id}: attempt ${attempt} failed (${error}); kept in data/excluded/`,
  // the evidence study
  generatedDiffers: (file: string) =>
    `${file} differs from what the generator writes. It may be frozen: record why in an amendment, rerun with --force, then ${messages.refreeze}`,
  evidenceNoTasks: (file: string) => `no tasks at ${file}: make tasks-evidence first, then make freeze`,
  realAppsArmUnregistered: () => 'the real-applications arm has no preregistration in prereg/ (study layers, arm real-apps): run it with --smoke (rows go to data/excluded/); a registered run needs its prereg, frozen first (make freeze)',
  realAppsOneBrowser: (command: string) => `${command} spreads its workers over browsers of their own (each through its worker's proxy): --browsers 1`,
  realAppsWorkersNotAdopted: (arm: string, adopted: { workers: number; by: string | null }) =>
    (adopted.by
      ? `--workers > ${adopted.workers}: ${adopted.by} adopts at most ${adopted.workers} workers for a registered ${arm} run; `
      : `--workers > 1: no frozen amendment lets a registered ${arm} run take more than one worker (issue 49: N workers change a trace's machine load; the registered rows ran one condition at a time); `) +
    `use --workers ${adopted.workers} for the registered run (an amendment's front matter adopts more: workers: { chromium: N }), or more with --smoke or RSTACK_SCRATCH, which write nothing into the record`,
  armUnregistered: (arm: string) => `the ${arm} arm has no preregistration in prereg/ (study layers, arm ${arm}): run it with --smoke (rows go to data/excluded/); a registered run needs its prereg, frozen first (make freeze)`,
  evidenceGatesFailed: (ids: string[]) => `instrumentation gates failed: ${ids.join(', ')}. A smoke run must pass every gate before the registered run.`,
  evidenceGatesFailedRegistered: (ids: string[]) => `instrumentation gates failed in this registered run: ${ids.join(', ')}. The rows stay registered and the failures are reported with them (the prereg: investigate before any analysis); see the gate lines above.`,
  evidenceNoPair: (dir: string) => `no Chromium controlled run in ${dir} to pair with; pass --paired-with FILE or run make run-controlled first`,
  // make merge (pipeline/kernel/merge.ts)
  merge: {
    noShards: (prefix: string, dir: string) => `no shard run files of ${prefix} in ${dir} (a sharded run writes ${prefix}-shard<i>of<n>-<time>.jsonl)`,
    manyCounts: (groups: string[]) => `shard files of more than one sharding are present (${groups.join('; ')}): pass --shards N`,
    refused: (prefix: string, count: number, problems: string[]) =>
      `refusing to merge the ${count} shards of ${prefix}:\n${problems.map((p) => `  ${p}`).join('\n')}\nNothing was written or moved.`,
    registeredExists: (file: string) =>
      `refusing to merge: ${file} is already a registered run of this arm, and a merge would make a second one. Move it aside first (the run target's --redo "reason" does), or merge into another arm`,
    stillRunning: (sessions: string[]) => `refusing to merge: shard sessions still run (${sessions.join(', ')}); wait for them to end`,
    merged: (file: string, rows: number, shards: number) => `${file}: ${rows} rows merged from ${shards} shards (moved to data/excluded/ with the reason)`,
  },
  // make reproduce REDO=1 (pipeline/steps/reproduce-redo.ts)
  redo: {
    scratchInRecord: (dir: string) =>
      `refusing to rerun into ${dir}: the scratch folder must lie outside data/ and manifests/ of the root (the record a rerun leaves untouched), and may not hold the root. Default: scratch/reproduce-<time>`,
    registeredBusy: (sessions: string[]) =>
      `refusing to rerun while a registered run runs here (${sessions.join(', ')}): the rerun's load would move its timing-sensitive outcomes, and its run log would not show the rerun. Wait for it`,
    unknownArm: (name: string, known: string[]) => `--arms: no arm ${JSON.stringify(name)}; the arms are ${known.join(', ')}`,
    onlyArmB: () => 'Arm B takes no --only (its smoke slices are --cases and --reps): add --skip-arm-b (make ARM_B=0) or leave arm-b out of --arms',
    start: (scratch: string, arms: string[], selection: string | null) =>
      `reproduce REDO: ${arms.length} arm${arms.length === 1 ? '' : 's'} (${arms.join(', ')}) from nothing into the scratch folder ${scratch}${selection ? `, selecting ${selection}` : ''}; the registered record stays as it is`,
    merged: (arm: string, shards: string[]) => `${arm}: the scratch folder holds its shards ${shards.join(', ')}: merged into one run (as make merge does), not run again; its time is the slowest shard's`,
    pilotSkipped: () => 'reproduce REDO: the planning pilot has no frozen plan file: skipped, as make reproduce skips it',
    armFailed: (arm: string, code: number, log: string) => `${arm}: its run ended with exit code ${code} (its screen: ${log}); the rerun goes on with the next arm`,
    recordChanged: (files: string[]) =>
      `the registered record changed during the rerun (it must not):\n${files.map((f) => `  ${f}`).join('\n')}`,
  },
  // Slurm (pipeline/slurm/): rstackbench slurm, slurm-status, slurm-resubmit, slurm-merge, slurm-cluster
  slurm: {
    badTarget: (value: string | undefined, known: string[]) =>
      `${value ? `--target ${JSON.stringify(value)} is not a target Slurm runs` : 'no --target'}; the targets: ${known.join(', ')} (make slurm TARGET=run-horizon)`,
    ownFlag: (flag: string) => `${flag} is the tasks' own: task k of N runs --shard k/N into a data root of its own (--data); give the target's other flags`,
    noSlice: (target: string, flag: string) =>
      `${flag}: a slice is a smoke run, and make merge joins registered shards only, so ${target} through Slurm runs the whole ${target === 'reproduce' ? 'rerun' : 'arm'}; to try the path, use a small arm in a tree of its own (RSTACK_ROOT) or make slurm-cluster`,
    noSubmission: (data: string) => `no submission in ${data} (no slurm.json): submit one first (rstackbench slurm --target TARGET --data ${data})`,
    alreadySubmitted: (data: string) =>
      `${data} holds a submission already (slurm.json): follow it (rstackbench slurm-status --data ${data}), run its missing shards again (rstackbench slurm-resubmit --data ${data}), or give another --data`,
    submitted: (sub: { target: string; shards: number; data: string; into: string }, s: { array_job: string | null; merge_job: string }, intoRecord: boolean) =>
      `slurm: ${sub.target} as ${sub.shards} tasks: job array ${s.array_job} (task k runs shard k/${sub.shards} into ${sub.data}/shard-k), merge job ${s.merge_job} after it; ` +
      `the merged run goes into ${intoRecord ? 'the record (data/raw)' : sub.into}. Progress: rstackbench slurm-status --data ${sub.data} (--wait to follow it)`,
    resubmitted: (sub: { target: string; shards: number; data: string }, s: { array_job: string | null; merge_job: string; shards: number[]; after: string[] }) =>
      `slurm: ${s.shards.length ? `shard${s.shards.length === 1 ? '' : 's'} ${s.shards.join(', ')} of ${sub.shards} again as job array ${s.array_job}` : 'every shard is done'}; merge job ${s.merge_job} after ${[...(s.array_job ? [s.array_job] : []), ...s.after].join(', ') || 'nothing'}. Progress: rstackbench slurm-status --data ${sub.data}`,
    nothingToResubmit: (merge: string) => `slurm: nothing to resubmit: no shard failed or is missing, and the merge job is ${merge}`,
    watchTimeout: (table: string) => `slurm: not settled in the time given; where it is:\n${table}`,
    mergeStepFailed: (command: string, code: number) => `slurm-merge: ${command} exited with code ${code}`,
    shardsNotDone: (shards: number[], data: string) =>
      `slurm-merge: shard${shards.length === 1 ? '' : 's'} ${shards.join(', ')} did not end with exit 0 (see rstackbench slurm-status --data ${data}); run ${shards.length === 1 ? 'it' : 'them'} again: rstackbench slurm-resubmit --data ${data}`,
    nothingToCompare: (study: string, arm: string) => `slurm-merge: the record has no registered ${study}/${arm} run to compare the merged run with`,
    noMungeUser: () => 'no munge user in /etc/passwd: install Debian\'s munge (apt-get install -y slurm-wlm munge; make test\'s set-up does it)',
    clusterNeedsRoot: () => 'a one-node Slurm cluster here needs root: munged is started as the munge user and slurmd runs jobs as root',
    clusterRunning: (state: string, daemons: string[]) => `a cluster of ${state} runs already (${daemons.join(', ')}): use it, or stop it first (rstackbench slurm-cluster-stop)`,
    portHint: () => 'give other ports (--slurmctld-port, --slurmd-port)',
    clusterUp: (state: string, conf: string) => `slurm-cluster: one node up on 127.0.0.1 (state in ${state}); for sbatch, squeue and rstackbench slurm: export SLURM_CONF=${conf}`,
    clusterStopped: (what: string[]) => (what.length ? `slurm-cluster: stopped ${what.join(', ')}` : 'slurm-cluster: nothing of it was running'),
  },
  // make export-trajectories (pipeline/steps/export-trajectories.ts)
  exportTrajectories: {
    start: (out: string) => `export-trajectories: writing AgentRewardBench trajectories to ${out}`,
    done: (count: number, runs: number, stored: number, withoutFiles: number, out: string) =>
      `export-trajectories: ${count} trajector${count === 1 ? 'y' : 'ies'} of ${runs} run files (the store held the target in ${stored}, not in ${count - stored})` +
      `${withoutFiles ? `; ${withoutFiles} rows kept no files (made before issue 51) and are not exported` : ''}; no screenshot or accessibility tree is recorded: judge with use_screenshot=False, use_axtree=False\n` +
      `  ${out}: cleaned/ (the trajectories), annotations.csv (the store's label, AgentRewardBench's columns), labels.jsonl (the label with our fields)`,
    problems: (problems: string[]) => `export-trajectories: ${problems.length} trace${problems.length === 1 ? '' : 's'} not exported:\n${problems.slice(0, 50).join('\n')}${problems.length > 50 ? `\n… and ${problems.length - 50} more` : ''}`,
  },
  // remote browsers (pipeline/browser/remote.ts)
  remote: {
    connectFailed: (endpoint: string, detail: string) => `cannot connect to the browser at BROWSER_WS_ENDPOINT=${endpoint}: ${detail}`,
    cdpNeedsChromium: (endpoint: string) => `BROWSER_WS_ENDPOINT=${endpoint} is a CDP endpoint, which only Chromium speaks; for Firefox start a Playwright browser server (make browser-server BROWSER=firefox)`,
    wrongEngine: (endpoint: string, serves: string, wanted: string) => `BROWSER_WS_ENDPOINT=${endpoint} serves ${serves}, but this run is ${wanted}: start a ${wanted} server or set BROWSER=${serves}`,
    badEndpoint: (endpoint: string) => `BROWSER_WS_ENDPOINT takes ws://, wss://, http:// or https:// (a Playwright browser server or a CDP endpoint), not ${JSON.stringify(endpoint)}`,
  },
};
