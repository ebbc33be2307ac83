#!/bin/bash
# t0725-hwloc.sh - memjob on machine shapes it does not run on: the hwloc
# XML fixtures of t/fixtures/topo (the seed 004 server, the seed 000
# laptop, an EPYC with an L3 per CCD, a hybrid Alder Lake, the 2-vCPU VM
# with an L3 per vCPU, an arm64 Graviton3), loaded with --topology-file,
# and the shipped scenarios' --plan on each: where the victim and its
# aggressors go, which grid points are left out and why, what 2*l2 is.
# Then this machine as a container would see it (taskset -c 1), and
# without sysfs cache information (a private mount namespace hides
# /sys/devices/system/cpu/cpu*/cache, as many VMs do): hwloc takes the
# caches from CPUID, and where nothing knows them the errors say what to
# do.  Nothing here depends on this machine's shape.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

TOPO=$SRCDIR/t/fixtures/topo
JOBS=$SRCDIR/jobs
# llc-noisy sweeps the flush instructions of this CPU (flush:*): how many,
# the first and the last (clflush, clwb on x86-64)
FLUSHES=$("$MEMJOB" --dump "$JOBS/llc-noisy.ini" | sed -n 's/^sweep=flush://p')
NFLUSH=$(echo "$FLUSHES" | tr , "\n" | wc -l)
FLUSH1=${FLUSHES%%,*}
FLUSHN=${FLUSHES##*,}
export NFLUSH FLUSH1 FLUSHN
export TOPO JOBS

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'
# CPUID: an x86 machine, where hwloc reads caches with CPUID
test_lazy_prereq X86 '
	case $(memjob_arch) in x86-64) ;; *) echo "memjob is not built for x86: no CPUID"; exit 1 ;; esac
'
# sysfs lists no cache here, or a private mount namespace can hide them
test_lazy_prereq NOSYSFS '
	[ -d /sys/devices/system/cpu/cpu0/cache/index0 ] || exit 0
	[ "$(id -u)" = 0 ] || { echo "hiding sysfs caches needs root"; exit 1; }
	command -v unshare >/dev/null || { echo "no unshare"; exit 1; }
	unshare -m true || { echo "unshare -m is not permitted"; exit 1; }
'

# no_sysfs_caches CMD...: run CMD where sysfs lists no cache: as it is if
# it lists none, else in a private mount namespace with the cache
# directories covered by empty tmpfs mounts (nothing outside it sees them).
no_sysfs_caches()
{
	if [ ! -d /sys/devices/system/cpu/cpu0/cache/index0 ]; then
		"$@"
		return
	fi
	unshare -m sh -c '
		for d in /sys/devices/system/cpu/cpu*/cache; do
			mount -t tmpfs none "$d" || exit 125
		done
		exec "$@"' sh "$@"
}

# plan FIXTURE JOBFILE [VAR=VALUE...]: memjob --plan of JOBFILE on the
# fixture, into plan (stdout) and notes (stderr).
plan()
{
	local fix=$1 job=$2
	shift 2
	env "$@" "$MEMJOB" --topology-file="$TOPO/$fix.xml" --plan \
		"$JOBS/$job" >plan 2>notes || { cat notes; return 1; }
	cat notes
}

# clones RUN-PATTERN: the CPU lists of the clones of the first run whose
# line matches, one per line.
clones()
{
	awk -v pat="$1" '
		/^run / { inrun = 0 }
		/^run / && index($0, pat) && !done { inrun = 1; done = 1; next }
		inrun && /^  clone / { sub(/^  clone [0-9]+: CPUs? /, ""); sub(/,? memory.*/, ""); print }
	' plan
}

# ---- the fixtures load, and say where they come from ----------------------------

test_expect_success 'every fixture loads and names its file as the source' '
	for f in seed004 seed000 laptop-cgroup epyc7313 i5-1235u vm-2cpu graviton3; do
		"$MEMJOB" --topology-file="$TOPO/$f.xml" --topology >out &&
		grep "^topology of the topology file .*/$f.xml (hwloc XML file)" out &&
		grep "^caches, from hwloc XML file:" out || exit 1
	done
'

test_expect_success 'MEMJOB_TOPOLOGY_FILE does the same; the option wins' '
	MEMJOB_TOPOLOGY_FILE=$TOPO/vm-2cpu.xml "$MEMJOB" --topology >out &&
	grep "^2 CPUs (0-1)" out &&
	MEMJOB_TOPOLOGY_FILE=$TOPO/vm-2cpu.xml "$MEMJOB" \
		--topology-file="$TOPO/seed000.xml" --topology >out &&
	grep "^8 CPUs (0-7)" out
'

test_expect_success 'a synthetic description, inline or in a file' '
	"$MEMJOB" --topology-file="synthetic:pack:1 l3:1(size=4MiB) core:2 pu:1" \
		--dump --name=a --size=llc/2 >d &&
	grep -F "(2097152 bytes)" d &&
	printf "# two sockets\npack:2 [numa(memory=1GiB)] l3:1(size=8MiB) core:4 pu:2\n" >m.synth &&
	"$MEMJOB" --topology-file=m.synth --topology >out &&
	grep "^16 CPUs (0-15): 2 packages, 8 cores, 2 threads per core" out &&
	grep "^caches, from hwloc synthetic description:" out
'

test_expect_success 'bad topology files: exit 2, and why' '
	in_fresh_dir missing &&
	refuses --topology-file=/nonexistent/x.xml --topology &&
	stderr_has "--topology-file: cannot read the topology file ${SQ}/nonexistent/x.xml${SQ}: No such file" &&
	in_fresh_dir empty &&
	: >"$TEST_TMP/empty.xml" &&
	refuses --topology-file="$TEST_TMP/empty.xml" --name=a --size=1m &&
	stderr_has "is empty: expected hwloc XML or a synthetic description" &&
	in_fresh_dir garbage &&
	echo "this is not a machine" >"$TEST_TMP/g.txt" &&
	refuses --topology-file="$TEST_TMP/g.txt" --plan --name=a --size=1m &&
	stderr_has "is neither hwloc XML" &&
	in_fresh_dir badxml &&
	echo "<topology><object type=\"Machine\">" >"$TEST_TMP/b.xml" &&
	refuses --topology-file="$TEST_TMP/b.xml" --topology &&
	stderr_has "is not an hwloc XML topology hwloc can read" &&
	in_fresh_dir novalue &&
	refuses --topology-file= --topology &&
	error_at "command line:1" topology-file "expected --topology-file=FILE"
'

test_expect_success 'jobs are planned on a topology file, never run on it' '
	in_fresh_dir norun &&
	refuses --topology-file="$TOPO/vm-2cpu.xml" --name=a --size=64k &&
	stderr_has "memjob plans jobs for it (--plan, --dump, --parse-only, --topology) but runs them only on this machine${SQ}s own" &&
	test_path_is_missing "$OUT.d"
'

# ---- llc-noisy (seed 004) on each machine ---------------------------------------------

test_expect_success 'seed004: victim on CPU 2, writers on node-0 cores, never 34; 1, 4, 8 fit' '
	plan seed004 llc-noisy.ini VICTIM_CPU=2 &&
	! grep "left out" notes &&
	! grep "fallback" notes &&
	grep -x "run 1: victim \[alone\], size 2 MiB (2\*l2)" plan &&
	test "$(clones "victim [alone]")" = 2 &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=1}")" = 0 &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=4}" | tr "\n" " ")" = "0 4 6 8 " &&
	test "$(clones "aggressor [loaded] {flush=$FLUSHN numjobs=8}" | tr "\n" " ")" = "0 4 6 8 10 12 14 16 " &&
	grep -c "^run .*aggressor" plan >n && test "$(cat n)" = $((NFLUSH * 3)) &&
	# no writer on the victim core (2, 34) nor on node 1 (odd CPUs)
	! grep -E "^  clone [0-9]+: CPU (34|2|[0-9]*[13579])," plan | grep -v "^  clone 0: CPU 2, memory node 0" &&
	grep -c "memory node 0 (local to its CPU)" plan
'

test_expect_success 'vm-2cpu: no CPU shares the L3: the fallback, and a note saying so' '
	plan vm-2cpu llc-noisy.ini &&
	grep "note: job ${SQ}aggressor${SQ}: cpus_allowed: ${SQ}llc-of:0,!core-of:0${SQ} leaves no CPU; using the fallback ${SQ}!core-of:0${SQ} (CPU 1): these CPUs need not share that last-level cache, so this measures contention in the memory system, not LLC sharing" notes &&
	grep "numjobs=4 left out: cpus_allowed=.* gives 1 CPU" notes &&
	grep "numjobs=8 left out" notes &&
	test "$(clones "victim [alone]")" = 0 &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=1}")" = 1 &&
	grep -x "run 1: victim \[alone\], size 2 MiB (2\*l2)" plan
'

test_expect_success 'seed000 laptop: 6 CPUs share the L3 beside core 0: 8 writers left out' '
	plan seed000 llc-noisy.ini &&
	grep "numjobs=8 left out: cpus_allowed=.* gives 6 CPUs" notes &&
	! grep "numjobs=4 left out" notes &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=4}" | tr "\n" " ")" = "1 2 3 5 " &&
	grep -x "run 1: victim \[alone\], size 1 MiB (2\*l2)" plan
'

test_expect_success 'epyc7313: the LLC is the CCD of 4 cores: writers stay on it' '
	plan epyc7313 llc-noisy.ini &&
	grep "numjobs=8 left out: cpus_allowed=.* gives 6 CPUs" notes &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=4}" | tr "\n" " ")" = "1 2 3 17 " &&
	! grep -E "^  clone [0-9]+: CPU ([4-9]|1[0-6]|2[0-9]|3[01])," plan &&
	grep -x "run 1: victim \[alone\], size 1 MiB (2\*l2)" plan
'

test_expect_success 'i5-1235u: a P-core victim, writers on the other P-core and the E-cores' '
	plan i5-1235u llc-noisy.ini &&
	! grep "left out" notes &&
	test "$(clones "aggressor [loaded] {flush=$FLUSH1 numjobs=8}" | tr "\n" " ")" = "2 3 4 5 6 7 8 9 " &&
	grep -x "run 1: victim \[alone\], size 2.5 MiB (2\*l2)" plan &&
	VICTIM_CPU=4 "$MEMJOB" --topology-file="$TOPO/i5-1235u.xml" --plan \
		"$JOBS/llc-noisy.ini" >plan 2>notes &&
	grep -x "run 1: victim \[alone\], size 4 MiB (2\*l2)" plan
'

test_expect_success 'graviton3 (arm64): 63 other cores share the L3' '
	plan graviton3 llc-noisy.ini &&
	! grep "left out" notes &&
	test "$(clones "aggressor [loaded] {flush=$FLUSHN numjobs=8}" | tr "\n" " ")" = "1 2 3 4 5 6 7 8 " &&
	grep -x "run 1: victim \[alone\], size 2 MiB (2\*l2)" plan
'

# ---- smt-siblings (seed 000) -----------------------------------------------------------

test_expect_success 'smt-siblings on the laptop: 0 and 4, then 0 and 1' '
	plan seed000 smt-siblings.ini &&
	! grep "left out" notes &&
	test "$(clones "chase {cpus_allowed=siblings-of:0}" | tr "\n" " ")" = "0 4 " &&
	test "$(clones "chase {cpus_allowed=llc-of:0" | tr "\n" " ")" = "0 1 " &&
	grep "^run 1: chase {cpus_allowed=siblings-of:0}, size 256 KiB (l2/2)" plan
'

test_expect_success 'smt-siblings on the VM: siblings left out, cores by the fallback' '
	plan vm-2cpu smt-siblings.ini &&
	grep "point {cpus_allowed=siblings-of:0} left out: cpus_allowed=siblings-of:0 gives 1 CPU on this machine for its 2 clones" notes &&
	grep "${SQ}llc-of:0,!siblings-of:0,0${SQ} gives 1 CPU for 2 clones; using the fallback ${SQ}!siblings-of:0,0${SQ} (CPUs 0-1)" notes &&
	test "$(clones "chase {cpus_allowed=llc-of:0" | tr "\n" " ")" = "0 1 "
'

test_expect_success 'a container allowed CPUs 1-3,5-7: nothing on 0 or 4, and why' '
	in_fresh_dir cgsmt &&
	refuses --topology-file="$TOPO/laptop-cgroup.xml" --plan "$JOBS/smt-siblings.ini" &&
	error_at "$JOBS/smt-siblings.ini:29" cpus_allowed \
		"${SQ}siblings-of:0${SQ} leaves no CPU: CPUs 0,4 are outside the CPUs this process may use (1-3,5-7;" &&
	"$MEMJOB" --topology-file="$TOPO/laptop-cgroup.xml" --plan \
		--name=w --size=1m --cpus_allowed="llc-of:0,!core-of:0" \
		--cpus_allowed_policy=split --numjobs=4 >plan 2>notes &&
	grep "${SQ}llc-of:0,!core-of:0${SQ} leaves out CPUs 0,4: outside the CPUs this process may use" notes &&
	test "$(clones "w" | tr "\n" " ")" = "1 2 3 5 " &&
	in_fresh_dir cg0 &&
	refuses --topology-file="$TOPO/laptop-cgroup.xml" --plan "$JOBS/llc-noisy.ini" &&
	line=$(grep -n "^cpus_allowed=\${VICTIM_CPU:-0}\$" "$JOBS/llc-noisy.ini" | cut -d: -f1) &&
	error_at "$JOBS/llc-noisy.ini:$line" cpus_allowed \
		"CPU 0 is outside the CPUs this process may use (1-3,5-7; taskset or a cgroup cpuset limits memjob to them)"
'

# ---- this machine, as a container and a VM would see it ----------------------------------

test_expect_success TWO_CPUS 'taskset -c 1: CPU 0 is refused, named and explained' '
	taskset -c 1 "$MEMJOB" --topology >out &&
	grep "^CPUs this process may use: 1 (the others are outside its taskset or cgroup cpuset)" out &&
	in_fresh_dir ts &&
	before=$(ls) &&
	{ taskset -c 1 "$MEMJOB" --name=a --size=64k --cpus_allowed=0 \
		>"$OUT" 2>"$ERR"; test $? = 2; } &&
	error_at "command line:3" cpus_allowed "CPU 0 is outside the CPUs this process may use (1;" &&
	taskset -c 1 "$MEMJOB" --plan --name=a --size=64k \
		--cpus_allowed="0 else !0" >plan 2>notes &&
	grep "CPU 0 is outside the CPUs this process may use" notes &&
	grep "^  clone 0: CPU 1," plan &&
	taskset -c 1 "$MEMJOB" --plan --name=a --size=64k --cpus_allowed=all \
		>plan &&
	grep "^  clone 0: CPU 1," plan &&
	taskset -c 1 "$MEMJOB" --name=a --size=64k --runtime=20ms \
		--time_based >out &&
	grep "^topology: .*; memjob may use CPUs 1 only (taskset or a cgroup cpuset)$" out
'

test_expect_success TWO_CPUS 'llc-noisy runs on the VM shape (HWLOC_XMLFILE): the table and the note' '
	in_fresh_dir vmrun &&
	HWLOC_XMLFILE=$TOPO/vm-2cpu.xml VICTIM_TIME=100ms REPEAT=1 PRECISION=off \
		WRITE_SIZE=4m "$MEMJOB" "$JOBS/llc-noisy.ini" >out 2>err &&
	cat err &&
	grep "^topology: this machine as HWLOC_XMLFILE (hwloc XML) describes it;" out &&
	grep "^note: job ${SQ}aggressor${SQ}: cpus_allowed: ${SQ}llc-of:0,!core-of:0${SQ} leaves no CPU; using the fallback ${SQ}!core-of:0${SQ} (CPU 1): .* not LLC sharing" out &&
	grep "^note: job ${SQ}aggressor${SQ}: numjobs=4 left out" out &&
	grep "^  flush=$FLUSH1 numjobs=1 " out &&
	grep "^  flush=$FLUSHN numjobs=1 " out &&
	! grep "numjobs=4  " out
'

test_expect_success NOSYSFS,X86 'no caches in sysfs: hwloc reads CPUID; every level, labelled' '
	no_sysfs_caches "$MEMJOB" --topology >out &&
	cat out &&
	grep "^caches, from CPUID (x86):" out &&
	for c in "L1d data" "L1i instruction" "L2 unified" "L3 unified"; do
		grep "^  $c " out || exit 1
	done &&
	no_sysfs_caches "$MEMJOB" --output-format=csv --name=a --size=2*l2 \
		--kernel=chase --cpus_allowed=llc-of:0 --runtime=100ms \
		--time_based >out.csv &&
	test "$(csv_col out.csv status)" = ok &&
	no_sysfs_caches "$MEMJOB" --name=a --size=l1d --kernel=count \
		--runtime=50ms --time_based >out &&
	grep "^topology: this machine (read by hwloc); CPUs from .*, caches from CPUID (x86)$" out
'

test_expect_success NOSYSFS,X86 'no cache known anywhere: the errors say what is unknown and what to do' '
	in_fresh_dir nocache &&
	{ HWLOC_COMPONENTS=-x86 no_sysfs_caches "$MEMJOB" --name=a --size=2*l2 \
		--cpus_allowed=llc-of:0 >"$OUT" 2>"$ERR"; test $? = 2; } &&
	cat "$ERR" &&
	error_at "command line:2" size "${SQ}2*l2${SQ}: the size of l2 is unknown: neither sysfs nor CPUID lists a cache for this machine; give the size in bytes (e.g. 1m), or describe the machine with --topology-file" &&
	error_at "command line:3" cpus_allowed "${SQ}llc-of:0${SQ}: the last-level cache of CPU 0 is unknown" &&
	HWLOC_COMPONENTS=-x86 no_sysfs_caches "$MEMJOB" --topology >out &&
	grep "^caches: none known: neither sysfs nor CPUID lists a cache" out
'

test_done
