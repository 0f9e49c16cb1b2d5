# Sourced by shard.sbatch and merge.sbatch: the task's note of how it started and how it ended
# (schemas/slurm-task.schema.json), which `rstackbench slurm-status` reads beside squeue (a cluster
# without accounting forgets an ended job). Written when the task starts, and again when it ends with
# its command's exit code: an EXIT trap, and a TERM trap so that scancel's TERM is recorded as 143. A
# task killed outright (KILL after KillWait, a lost node) keeps the first note only.
#
#   note_start FILE ROLE SHARD SHARDS     (ROLE: shard or merge; SHARD and SHARDS: numbers, or null)

note_write() { # $1: the ending's fields (",\"ended_at\":…,\"exit\":N"), or nothing
  local job="${SLURM_ARRAY_JOB_ID:-${SLURM_JOB_ID}}${SLURM_ARRAY_TASK_ID:+_${SLURM_ARRAY_TASK_ID}}"
  printf '{"schema":"slurm-task/1","role":"%s","shard":%s,"shards":%s,"job":"%s","job_id":"%s","restarts":%d,"host":"%s","started_at":"%s"%s}\n' \
    "$note_role" "$note_shard" "$note_shards" "$job" "$SLURM_JOB_ID" "${SLURM_RESTART_COUNT:-0}" "$(hostname)" "$note_started" "${1:-}" \
    > "$note_file.$$.tmp" && mv -f "$note_file.$$.tmp" "$note_file"
}

note_end() { # $1: the exit code, taken first (a command substitution would change $?)
  note_write ",\"ended_at\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\",\"exit\":$1"
}

note_start() {
  note_file=$1 note_role=$2 note_shard=$3 note_shards=$4
  note_started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  note_write
  trap 'note_end $?' EXIT
  # without these bash would die of the signal before its EXIT trap could say so; the command it waits
  # for gets the same signal from Slurm, so the trap runs as soon as that has ended
  trap 'exit 143' TERM
  trap 'exit 130' INT
}
