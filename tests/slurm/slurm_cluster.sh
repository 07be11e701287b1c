#!/usr/bin/env bash
# A single-node Slurm for the tests, from Debian's slurmctld and slurmd: one node on loopback named for
# this host, AuthType=auth/none (Debian 12's Slurm 22.05 still ships auth_none.so: no munge, no key),
# two fake GPUs as GRES (no device files: the tasks get no CUDA_VISIBLE_DEVICES, and the fake CUDA
# runtime is the GPU), every file - config, state, spool, logs, PID files - under DIR.
#   start DIR   writes DIR/slurm.conf, starts both daemons, waits for the node, sets Gres=gpu:2 (a count
#               in slurm.conf makes a node without GPU devices start INVAL; scontrol update after start works),
#               and prints `export SLURM_CONF=DIR/slurm.conf` for the caller to eval. Exit 77 when the
#               daemons are not installed or cannot run here (a test skips then).
#   stop DIR    kills the daemons by their PID files (DIR/slurmctld.pid, DIR/slurmd.pid) and waits for them.
set -euo pipefail
action=$1 dir=$(mkdir -p "$2" && cd "$2" && pwd)
sbin=/usr/sbin

stop() {
  for daemon in slurmd slurmctld; do
    pidfile=$dir/$daemon.pid
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    # Only a process of that name: a stale PID file never kills what reuses its number.
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$daemon" ]; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
      [ ! -d "/proc/$pid" ] || kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
}

if [ "$action" = stop ]; then stop; exit 0; fi
[ "$action" = start ] || { echo "usage: slurm_cluster.sh start|stop DIR" >&2; exit 2; }

for p in slurmctld slurmd; do
  [ -x "$sbin/$p" ] || { echo "SKIP: $sbin/$p is not installed (cmake/install-deps.sh installs it)" >&2; exit 77; }
done
for p in sbatch squeue scontrol; do
  command -v "$p" > /dev/null || { echo "SKIP: $p is not installed (slurm-client)" >&2; exit 77; }
done
plugins=$(dirname "$(find /usr/lib -name auth_none.so -path '*slurm*' 2>/dev/null | head -1)")
[ -n "$plugins" ] && [ "$plugins" != . ] || { echo "SKIP: this Slurm has no auth/none plugin" >&2; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: slurmd runs jobs as their users and needs root" >&2; exit 77; }

stop  # what an earlier run left
host=$(hostname -s)
cpus=$(nproc)
# Two free TCP ports on loopback, so that several builds' tests never meet.
read -r ctld_port d_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
rm -rf "$dir/state" "$dir/spool" && mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" <<EOF
# A one-node test cluster on loopback (tests/slurm/slurm_cluster.sh).
ClusterName=cudalab-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/none
CredType=cred/none
PluginDir=$plugins
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# No Gres= on the node line: slurmd finds no GPU device to report and the node would start INVAL
# ("gres/gpu count reported lower than configured"); the count is set once the node is up.
printf 'NodeName=%s Name=gpu Count=2\n' "$host" > "$dir/gres.conf"
export SLURM_CONF=$dir/slurm.conf
trap 'stop' ERR
"$sbin/slurmctld" -i -f "$SLURM_CONF" || { echo "SKIP: slurmctld does not start here: $(tail -3 "$dir/slurmctld.log")" >&2; stop; exit 77; }
"$sbin/slurmd" -f "$SLURM_CONF" -N "$host" || { echo "SKIP: slurmd does not start here: $(tail -3 "$dir/slurmd.log")" >&2; stop; exit 77; }
for _ in $(seq 100); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
  case $state in idle*|mix*|alloc*) break ;; esac
  sleep 0.2
done
case $state in idle*|mix*|alloc*) ;; *)
  echo "SKIP: the node did not come up (state '$state'): $(tail -3 "$dir/slurmd.log")" >&2; stop; exit 77 ;;
esac
scontrol update NodeName="$host" Gres=gpu:2
echo "export SLURM_CONF=$SLURM_CONF"
