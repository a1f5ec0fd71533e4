#!/usr/bin/env bash
# A sweep on a real scheduler, end to end (outside CI; see docs/sweeps.md): starts a one-node
# Slurm cluster on this machine (scripts/slurm-cluster.sh: Debian's slurm-wlm and munge,
# slurmctld and slurmd on localhost), submits scripts/slurm-sweep.json as a job array of
# SHARDS tasks (scripts/sweep.sbatch), cancels one task while it runs and resubmits it (it
# resumes its own runs), waits, runs `rl summarize`, runs the same sweep in one process, and
# compares the two result trees file by file (run files with their timings masked).
#
#   scripts/slurm-sweep.sh            # SHARDS=4; KEEP_CLUSTER=1 leaves the daemons running
#
# Needs root (or passwordless sudo) for the packages and the daemons. Builds the rl binary
# with cargo (debug; RL_PROFILE=release for an optimised one) unless RL names one.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARDS=${SHARDS:-4}
SWEEP_FILE=${SWEEP_FILE:-$REPO/scripts/slurm-sweep.json}
export SLURM_SWEEP_ROOT=${SLURM_SWEEP_ROOT:-/tmp/slurm-sweep}
export SLURM_CONF=$SLURM_SWEEP_ROOT/etc/slurm.conf
WORK=$SLURM_SWEEP_ROOT/work-$(date -u +%Y%m%dT%H%M%S)
SHARED=$WORK/results-slurm
SINGLE=$WORK/results-single

step() { printf '\n== %s\n' "$*"; }

if [ -z "${RL:-}" ]; then
    step "building rl"
    profile=${RL_PROFILE:-debug}
    flag=(); [ "$profile" = release ] && flag=(--release)
    (cd "$REPO" && cargo build -q "${flag[@]}" -p rlrs-experiment --bin rl)
    RL=${CARGO_TARGET_DIR:-$REPO/target}/$profile/rl
fi
export RL
"$RL" --version

step "starting a one-node Slurm cluster"
"$REPO/scripts/slurm-cluster.sh" start
if [ "${KEEP_CLUSTER:-0}" != 1 ]; then
    trap '"$REPO/scripts/slurm-cluster.sh" stop' EXIT
fi
mkdir -p "$WORK/logs"
cp "$SWEEP_FILE" "$WORK/sweep.json"
"$RL" sweep "$WORK/sweep.json" --out "$SHARED" --list | head -1

wait_for() { # JOB: polls squeue until the job has no task left, at most 20 minutes.
    for _ in $(seq 1200); do
        if [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]; then return 0; fi
        sleep 1
    done
    echo "job $1 still queued after 20 minutes" >&2
    squeue >&2
    return 1
}

task_states() { # JOB: "task state" lines from the job completion log.
    grep "ArrayJobId=$1 " "$SLURM_SWEEP_ROOT/log/jobcomp.txt" \
        | sed -E 's/.*JobState=([A-Z_]+).*ArrayTaskId=([0-9]+).*/task \2 \1/' | sort -k2n
}

step "submitting the sweep: sbatch --array=0-$((SHARDS - 1)) scripts/sweep.sbatch"
JOB=$(cd "$WORK" && sbatch --parsable --array=0-$((SHARDS - 1)) \
    --output="$WORK/logs/%A_%a.out" "$REPO/scripts/sweep.sbatch" "$WORK/sweep.json" "$SHARED" "$SHARDS")
echo "array job $JOB"

# Kill task 1 once it has finished a run of its own and is in the middle of another.
VICTIM=1
for _ in $(seq 600); do
    finished=$(grep -c 'finished (' "$WORK/logs/${JOB}_${VICTIM}.out" 2>/dev/null || true)
    if [ "${finished:-0}" -ge 1 ]; then break; fi
    sleep 0.5
done
step "cancelling task $VICTIM mid-run (scancel ${JOB}_$VICTIM) after it finished $finished run(s)"
scancel "${JOB}_${VICTIM}"
"$RL" status "$SHARED" | tail -1
wait_for "$JOB"
task_states "$JOB"

step "status after the array (task $VICTIM was cancelled)"
"$RL" status "$SHARED"

step "resubmitting task $VICTIM: sbatch --array=$VICTIM scripts/sweep.sbatch"
JOB2=$(cd "$WORK" && sbatch --parsable --array=$VICTIM \
    --output="$WORK/logs/%A_%a.out" "$REPO/scripts/sweep.sbatch" "$WORK/sweep.json" "$SHARED" "$SHARDS")
wait_for "$JOB2"
task_states "$JOB2"
echo "--- task $VICTIM's first attempt:"
cat "$WORK/logs/${JOB}_${VICTIM}.out"
echo "--- task $VICTIM resubmitted:"
cat "$WORK/logs/${JOB2}_${VICTIM}.out"

step "rl status; rl summarize"
"$RL" status "$SHARED"
"$RL" summarize "$SHARED"

step "the same sweep in one process"
"$RL" sweep "$WORK/sweep.json" --out "$SINGLE" 2>/dev/null | tail -1

step "comparing $SHARED with $SINGLE"
compare() { # masks the timings of run files, then compares every file, hidden ones too.
    local a=$1 b=$2 differing=0 count=0
    if ! diff <(cd "$a" && find . -type f | sort) <(cd "$b" && find . -type f | sort); then
        echo "the two trees hold different files" >&2
        return 1
    fi
    while IFS= read -r file; do
        count=$((count + 1))
        if ! cmp -s <(sed -E 's/"learning_time": [-+0-9.eE]+/"learning_time": 0/' "$a/$file") \
            <(sed -E 's/"learning_time": [-+0-9.eE]+/"learning_time": 0/' "$b/$file"); then
            echo "differs: $file" >&2
            differing=$((differing + 1))
        fi
    done < <(cd "$a" && find . -type f | sort)
    raw=$(diff -rq "$a" "$b" | wc -l || true)
    echo "$count files compared: $differing differ once learning_time is masked ($raw differ byte for byte: the run files, by their timings)"
    [ "$differing" -eq 0 ]
}
compare "$SHARED" "$SINGLE"
echo "slurm sweep: OK (results in $WORK)"
