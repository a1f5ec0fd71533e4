#!/usr/bin/env bash
# Starts (or stops) a one-node Slurm cluster on this machine: munged, slurmctld and slurmd on
# localhost, with a cgroup-free configuration, all state under $SLURM_SWEEP_ROOT (default
# /tmp/slurm-sweep). Used by scripts/slurm-sweep.sh; outside CI. Needs root (or sudo) to
# install Debian's slurm-wlm and munge and to run the daemons.
#
#   scripts/slurm-cluster.sh start   # install if needed, write slurm.conf, start the daemons
#   scripts/slurm-cluster.sh stop    # stop the daemons this script started
set -euo pipefail

ROOT=${SLURM_SWEEP_ROOT:-/tmp/slurm-sweep}
CONF_DIR=$ROOT/etc
export SLURM_CONF=$CONF_DIR/slurm.conf

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null \
        && command -v sbatch >/dev/null; then
        return
    fi
    echo "installing slurm-wlm and munge (Debian packages)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
}

write_config() {
    mkdir -p "$CONF_DIR" "$ROOT/state" "$ROOT/spool" "$ROOT/log"
    local cpus memory
    cpus=$(nproc)
    # RealMemory in MiB, a little under what the machine has so that slurmd never finds less.
    memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
    cat > "$SLURM_CONF" <<CONF
# A one-node cluster on localhost for scripts/slurm-sweep.sh: no cgroups, no accounting
# database, everything under $ROOT.
ClusterName=rlsweep
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$ROOT/state
SlurmdSpoolDir=$ROOT/spool
SlurmctldPidFile=$ROOT/slurmctld.pid
SlurmdPidFile=$ROOT/slurmd.pid
SlurmctldLogFile=$ROOT/log/slurmctld.log
SlurmdLogFile=$ROOT/log/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$ROOT/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
DefMemPerCPU=512
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
    install_packages
    write_config
    as_root mkdir -p /run/munge /var/log/munge /var/lib/munge
    if ! pgrep -x munged >/dev/null; then
        as_root chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
        if id munge >/dev/null 2>&1; then
            as_root runuser -u munge -- munged
        else
            as_root munged --force
        fi
    fi
    munge -n | unmunge >/dev/null
    echo "munged: credentials encode and decode"
    as_root env SLURM_CONF="$SLURM_CONF" slurmctld
    as_root env SLURM_CONF="$SLURM_CONF" slurmd
    for _ in $(seq 60); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
            sinfo
            return
        fi
        sleep 1
    done
    echo "the node did not become idle within a minute; logs:" >&2
    tail -n 30 "$ROOT"/log/*.log >&2
    exit 1
}

stop() {
    for daemon in slurmd slurmctld; do
        if [ -f "$ROOT/$daemon.pid" ]; then
            as_root kill "$(cat "$ROOT/$daemon.pid")" 2>/dev/null || true
            rm -f "$ROOT/$daemon.pid"
        fi
    done
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
