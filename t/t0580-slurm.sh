#!/bin/bash
# t0580-slurm.sh - memjob across a cluster, on a real one-node Slurm
# cluster started here: munged with its own key and socket, slurmctld and
# slurmd as root on free unprivileged ports, every state, log and spool
# file in a temporary directory, so two copies of this script can run at
# once and nothing of the machine's own Slurm (if any) is touched.
#
# It submits a job array of tiny memjob runs, each writing its CSV through
# --output's per-task pattern, merges them and checks that no task is
# lost, that every row names its machine and task, and that report --by
# flags the task that was slowed down on purpose (the injected outlier).
# It runs srun -n2, checks a task bound to one CPU by Slurm keeps memjob
# there, and runs examples/fleet.sbatch as written.  Then it starts the
# cluster again with task/cgroup, where this machine lets slurmd make
# cgroups (cgroup v1), and checks that srun --mem=200M refuses a 1 GiB
# job before it starts (the job's memory cgroup is memjob's limit).
#
# Skips where root or Debian's slurm-wlm and munge packages are missing.
# The daemons are stopped on every exit, by their pid files, and any step
# daemon of this cluster left behind is killed by its pid.
. t/lib.sh

slurm_missing()
{
	local c

	for c in munged slurmctld slurmd sbatch srun sinfo squeue scancel; do
		command -v "$c" >/dev/null 2>&1 || {
			echo "no $c (apt-get install slurm-wlm munge)"
			return 0
		}
	done
	return 1
}

why=
if [ "$(id -u)" != 0 ]; then
	why="not root: slurmctld and slurmd run as root here"
elif why=$(slurm_missing); then
	:
else
	why=
fi

if [ -n "$why" ]; then
	test_skip 'a one-node Slurm cluster runs memjob' "$why"
	test_done
fi

# The cluster's directory: short, for munge's socket path.
SD=$(mktemp -d /tmp/mjslurm.XXXXXX) || exit 1
chmod 700 "$SD"
export SLURM_CONF=$SD/slurm.conf
# What a job would otherwise inherit from an outer Slurm.
unset SLURM_JOB_ID SLURM_JOBID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID \
	SLURM_PROCID SLURMD_NODENAME SLURM_NODELIST SLURM_JOB_NODELIST

# pid of the daemon whose pid file is $1, if it is still that daemon.
pid_of()
{
	local pid

	[ -s "$1" ] || return 1
	pid=$(cat "$1") && [ -d "/proc/$pid" ] && echo "$pid"
}

# Step daemons (slurmstepd) of this cluster: those whose environment
# names our slurm.conf.
our_stepds()
{
	local p

	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
		tr '\0' '\n' 2>/dev/null <"$p/environ" |
			grep -qxF "SLURM_CONF=$SLURM_CONF" && echo "${p#/proc/}"
	done
}

# Whether process $1 is gone (or a zombie, which is as good).
gone()
{
	[ ! -d "/proc/$1" ] || [ "$(cut -d" " -f3 "/proc/$1/stat" 2>/dev/null)" = Z ]
}

slurm_down()
{
	local pids=() p i

	scancel --quiet --user=root >/dev/null 2>&1
	for p in slurmd slurmctld munged; do
		p=$(pid_of "$SD/$p.pid") && pids+=("$p")
	done
	for p in $(our_stepds); do
		pids+=("$p")
	done
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for i in $(seq 50); do
		for p in "${pids[@]}" ""; do
			[ -z "$p" ] && break 2
			gone "$p" || break
		done
		sleep 0.1
	done
	for p in "${pids[@]}" $(our_stepds); do
		gone "$p" || kill -9 "$p" 2>/dev/null
	done
	# the cgroups task/cgroup made (emptied with their steps)
	if [ -n "${SLURM_CGROUPS:-}" ]; then
		find /sys/fs/cgroup/*/"slurm_$(hostname -s)" -depth -type d \
			-exec rmdir {} + 2>/dev/null
	fi
	rm -rf "$SD"
}
trap 'slurm_down; test_cleanup_' EXIT
trap 'exit 1' INT TERM HUP

# A free TCP port: none listening on it (/proc/net/tcp*, in hex).
port_free()
{
	! awk -v p="$(printf '%04X' "$1")" \
		'$4 == "0A" { split($2, a, ":"); if (a[2] == p) f = 1 }
		 END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

slurm_conf()
{
	local node track

	# NodeName (hostname -s), CPUs, sockets, cores, threads and
	# RealMemory as slurmd itself finds them on this machine
	node=$(slurmd -C | head -n 1)
	track=linuxproc
	[ -z "${SLURM_CGROUPS:-}" ] || track=cgroup
	cat >"$SLURM_CONF" <<EOF
ClusterName=mj$1
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$(($1 + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SD/munge.sock
CredType=cred/munge
StateSaveLocation=$SD/state
SlurmdSpoolDir=$SD/spool
SlurmctldPidFile=$SD/slurmctld.pid
SlurmdPidFile=$SD/slurmd.pid
SlurmctldLogFile=$SD/slurmctld.log
SlurmdLogFile=$SD/slurmd.log
ProctrackType=proctrack/$track
TaskPlugin=${SLURM_CGROUPS:+task/cgroup,}task/affinity
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU${SLURM_CGROUPS:+_Memory}
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$node NodeAddr=127.0.0.1
PartitionName=memjob Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	[ -z "${SLURM_CGROUPS:-}" ] || cat >"$SD/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainRAMSpace=yes
ConstrainSwapSpace=no
EOF
}

# Start munged, then slurmctld and slurmd on free ports (tried a few
# times: another copy of this test may take the same ports meanwhile),
# until the node is idle.
slurm_up()
{
	local try port i

	dd if=/dev/urandom of="$SD/munge.key" bs=1024 count=1 2>/dev/null &&
	chmod 400 "$SD/munge.key" &&
	munged --force --key-file="$SD/munge.key" --socket="$SD/munge.sock" \
		--pid-file="$SD/munged.pid" --log-file="$SD/munged.log" \
		--seed-file="$SD/munged.seed" || return 1
	for try in 1 2 3; do
		port=$((20000 + RANDOM % 20000))
		port_free "$port" && port_free $((port + 1)) || continue
		rm -rf "$SD/state" "$SD/spool"
		mkdir -p "$SD/state" "$SD/spool"
		slurm_conf "$port"
		slurmctld -c -f "$SLURM_CONF" && slurmd -f "$SLURM_CONF" ||
			return 1
		for i in $(seq 100); do
			[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
			sleep 0.2
		done
		for i in slurmd slurmctld; do
			pid=$(pid_of "$SD/$i.pid") && kill "$pid"
		done
		sleep 1
	done
	return 1
}

if slurm_up >"$SD/up.log" 2>&1; then
	test_set_prereq CLUSTER
else
	test_expect_success 'a one-node Slurm cluster starts' '
		cat "$SD/up.log" "$SD"/*.log; false
	'
fi

# sbatch, then wait for the job (every task of an array) to leave the
# queue, looking every 0.1 s (sbatch --wait looks every few seconds and
# doubles its pause: a job of half a second took 10 s); 0 when every
# task COMPLETED, 1 when one did not, 124 after two minutes.
submit()
{
	local id i

	id=$(sbatch --parsable "$@") || return 1
	id=${id%%;*}
	for i in $(seq 1200); do
		[ -z "$(squeue -h -j "$id" 2>/dev/null)" ] && break
		sleep 0.1
	done
	[ -z "$(squeue -h -j "$id" 2>/dev/null)" ] || return 124
	scontrol -o show job "$id" >"submit-$id.state"
	grep -q . "submit-$id.state" &&
	! grep -v "JobState=COMPLETED" "submit-$id.state"
}

test_expect_success CLUSTER 'a job array of memjob runs: one CSV per task, none lost' '
	mkdir tasks &&
	# Every task is paced (rate), so that a busy host cannot make one
	# look slow; task 3 is paced 8 times slower: the injected outlier.
	# 8 MiB at 64 MB/s is 125 ms: long enough that a sanitizer build on
	# a loaded host, whose start costs tens of ms, still runs at its pace
	# (1 MiB, 16 ms, once measured task 0 at 40% of it).
	cat >task.sh <<-\EOF &&
	#!/bin/bash
	rate=64m
	[ "$SLURM_ARRAY_TASK_ID" = 3 ] && rate=8m
	exec "$MEMJOB" --output-format=csv --output="tasks/%A_%a.csv" \
		--name=t --ioengine=mem --size=8m --bs=64k --kernel=count \
		--rate=$rate
	EOF
	chmod +x task.sh &&
	submit --array=0-3 --chdir="$TEST_TMP" -o "slurm-%A_%a.out" task.sh ||
		{ cat slurm-*.out "$SD/slurmd.log"; false; } &&
	ls tasks >files &&
	test "$(wc -l <files)" = 4 &&
	for f in tasks/*.csv; do
		test "$(wc -l <"$f")" = 2 || { cat "$f"; false; }
	done &&
	"$MEMJOB" report --merge tasks/*.csv >fleet.csv &&
	test "$(wc -l <fleet.csv)" = 5 &&
	test "$(lines fleet.csv slurm_array_task_id | tr " " "\n" | sort | xargs)" = "0 1 2 3" &&
	test "$(lines fleet.csv status)" = "ok ok ok ok" &&
	# one array job, four jobs, every file named after its task
	test "$(lines fleet.csv slurm_array_job_id | tr " " "\n" | sort -u | wc -l)" = 1 &&
	test "$(lines fleet.csv slurm_job_id | tr " " "\n" | sort -u | wc -l)" = 4 &&
	a=$(csv_col fleet.csv slurm_array_job_id) &&
	for t in 0 1 2 3; do test -s "tasks/${a}_$t.csv"; done
'

test_expect_success CLUSTER 'every row says which machine and task measured it' '
	test "$(lines fleet.csv host | tr " " "\n" | sort -u)" = "$(hostname)" &&
	test "$(lines fleet.csv slurm_nodename | tr " " "\n" | sort -u)" = "$(hostname -s)" &&
	test "$(lines fleet.csv slurm_procid)" = "0 0 0 0" &&
	for c in cpu_model cpu_topology kernel_release memjob_version \
		 job_hash machine_type; do
		for r in 1 2 3 4; do
			test -n "$(csv_col fleet.csv $c $r)" ||
				{ echo "row $r: $c is empty"; false; }
		done &&
		test "$c" = job_hash ||
		test "$(lines fleet.csv $c | tr " " "\n" | sort -u | wc -l)" = 1 ||
			{ echo "$c differs between tasks"; false; }
	done &&
	test "$(csv_col fleet.csv kernel_release)" = "$(uname -r)" &&
	"$MEMJOB" --version | grep -qF " $(csv_col fleet.csv memjob_version)" &&
	# task 3 ran another job (its rate): another hash; 0-2 share one
	for r in 1 2 3 4; do
		echo "$(csv_col fleet.csv slurm_array_task_id $r) $(csv_col fleet.csv job_hash $r)"
	done | sort >hashes &&
	test "$(sed -n "1,3p" hashes | cut -d" " -f2 | sort -u | wc -l)" = 1 &&
	test "$(sed -n 4p hashes | cut -d" " -f2)" != "$(sed -n 1p hashes | cut -d" " -f2)"
'

test_expect_success CLUSTER 'report --by=slurm_array_task_id flags the slowed task' '
	"$MEMJOB" report --by=slurm_array_task_id --output-format=csv \
		fleet.csv >by.csv &&
	cat by.csv &&
	test "$(lines by.csv run | tr " " "\n" | sort | xargs)" = "0 1 2 3" &&
	test "$(csv_get by.csv outlier run=3)" = 1 &&
	# and it is the one furthest from the fleet median
	awk -F, -v d="$(csv_get by.csv deviation_pct run=3)" "
		NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"deviation_pct\") c = i; next }
		{ x = \$c < 0 ? -\$c : \$c; if (x > (d < 0 ? -d : d)) bad = 1 }
		END { exit bad }" by.csv &&
	test "$(csv_get by.csv deviation_pct run=3 | cut -c1)" = - &&
	"$MEMJOB" report --by=slurm_array_task_id fleet.csv >by.txt &&
	cat by.txt &&
	grep -E "^  3 at job=t machine_type=[0-9a-f]{12}: gbps " by.txt &&
	# task 3 ran its own rate: the report says the jobs differ
	grep -A1 "^note: the rows of these points ran different jobs" by.txt |
		grep -E "^  job=t machine_type=[0-9a-f]{12}\$"
'

test_expect_success CLUSTER 'srun -n2: a CSV per task rank, through %j and %t' '
	timeout 60 srun -n2 "$MEMJOB" --output-format=csv \
		--output="srun-%j-%t.csv" --name=s --size=1m --kernel=count &&
	ls srun-*.csv >files &&
	test "$(wc -l <files)" = 2 &&
	"$MEMJOB" report --merge srun-*.csv >srun.csv &&
	test "$(lines srun.csv slurm_procid | tr " " "\n" | sort | xargs)" = "0 1" &&
	j=$(csv_col srun.csv slurm_job_id) &&
	test -s "srun-$j-0.csv" && test -s "srun-$j-1.csv" &&
	test -z "$(csv_col srun.csv slurm_array_task_id)"
'

test_expect_success CLUSTER 'a task Slurm binds to one CPU keeps memjob on it' '
	cpus=$(sinfo -h -N -o %c) &&
	if [ "$cpus" -lt 2 ]; then echo "one CPU: nothing to bind apart"; exit 0; fi &&
	last=$((cpus - 1)) &&
	# the task gets every CPU (-c) and is bound to the last one; exec
	# inherits the job thread CPUs, which must be that one
	timeout 60 srun -n1 -c"$cpus" --cpu-bind=map_cpu:$last "$MEMJOB" --name=e \
		--kernel=exec --command="grep Cpus_allowed_list /proc/self/status" \
		>out 2>err &&
	grep -E "^Cpus_allowed_list:[[:space:]]+$last\$" err &&
	# a CPU outside the binding is refused before anything runs
	expect_exit 2 timeout 60 srun -n1 -c"$cpus" --cpu-bind=map_cpu:$last \
		"$MEMJOB" --name=e --size=64k --cpus_allowed=0 2>err &&
	grep "CPU 0 is outside the CPUs this process may use ($last; taskset or a cgroup cpuset limits memjob to them)" err
'

test_expect_success CLUSTER 'examples/fleet.sbatch runs as written and merges the nodes' '
	OUT=fleet-out SCENARIO="$SRCDIR/examples/triad.ini" \
		submit -N1 --chdir="$TEST_TMP" "$SRCDIR/examples/fleet.sbatch" \
		--size=3m --loops=1 ||
		{ cat memjob-fleet-*.log; false; } &&
	test -s fleet-out/fleet.csv &&
	test "$(lines fleet-out/fleet.csv job)" = "triad-plain triad-nt" &&
	test "$(lines fleet-out/fleet.csv status)" = "ok ok" &&
	test -n "$(csv_col fleet-out/fleet.csv slurm_job_id)" &&
	grep "^run: $(hostname) (2 rows)" fleet-out/by-host.txt &&
	grep "^run: $(hostname) (2 rows)" memjob-fleet-*.log
'

# The cluster again, with its jobs in cgroups that task/cgroup limits to
# what they ask for (--mem=): Slurm's cgroup/v1 plugin, where the memory
# controller is a v1 hierarchy and slurmd may make cgroups in it.
if test_have_prereq CLUSTER; then
	if ! grep -q " - cgroup cgroup [^ ]*memory" /proc/self/mountinfo; then
		why="no cgroup v1 memory hierarchy for Slurm's cgroup/v1 plugin"
	else
		slurm_down
		SD=$(mktemp -d /tmp/mjslurm.XXXXXX) && chmod 700 "$SD" &&
		SLURM_CONF=$SD/slurm.conf && SLURM_CGROUPS=1 &&
		export SLURM_CGROUPS
		if slurm_up >"$SD/up.log" 2>&1; then
			test_set_prereq CGROUP_CLUSTER
		else
			why="slurmd with task/cgroup did not start here: $(grep -m1 error "$SD/slurmd.log" 2>/dev/null)"
		fi
	fi
fi

if test_have_prereq CGROUP_CLUSTER; then
	test_expect_success CGROUP_CLUSTER 'srun --mem=200M: a 1 GiB job is refused before it starts, exit 2' '
		rc=0 &&
		timeout 60 srun --mem=200M "$MEMJOB" --name=m --ioengine=mem \
			--size=1g --kernel=sum >out 2>err || rc=$?
		cat err &&
		grep "srun: error: .*: task 0: Exited with exit code 2" err &&
		grep "need 1 GiB (1073758208 bytes) of memory at once, but /sys/fs/cgroup/memory/slurm_[^ ]*/job_[0-9]*/\(step_[0-9]*/\)\?memory.limit_in_bytes limits the memory cgroup memjob runs in to 200 MiB (209715200 bytes)" err &&
		test ! -s out
	'

	# (TSan's shadow takes several times the job's 64 MiB: Slurm kills it)
	test_expect_success CGROUP_CLUSTER,NOT_TSAN 'srun --mem=200M: a 64 MiB job runs' '
		timeout 60 srun --mem=200M "$MEMJOB" --output-format=csv --name=m \
			--ioengine=mem --size=64m --kernel=sum >out.csv &&
		test "$(csv_col out.csv status)" = ok
	'
elif test_have_prereq CLUSTER; then
	test_skip 'srun --mem= limits memjob through its cgroup' "$why"
fi

test_done
