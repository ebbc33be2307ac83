#!/bin/bash
# t0406-bounded-inputs.sh - inputs that would take memjob unbounded time
# or memory are refused from their text, before the work starts: a
# topology description (--topology-file, synthetic or XML, and hwloc's
# own HWLOC_SYNTHETIC) with more CPUs than memjob's limit of 1024, an XML
# file past its size bound, a cache larger than any machine has; a job
# file of more jobs than memjob reads (65536).
#
# Each refusal is checked under a memory limit and a time limit that the
# old behaviour (hwloc building 10^12 objects, a parser quadratic in the
# number of jobs) cannot meet, so a test fails on it rather than hanging.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

TOPO=$SRCDIR/t/fixtures/topo
export TOPO

# bounded SECONDS CMD...: CMD with at most 512 MiB of address space and
# SECONDS of time (killed after one more); its exit status.  An ASan or
# TSan build reserves terabytes of address space for its shadow memory
# and cannot start under any such limit (NO_SHADOW, t/lib.sh): there the
# time alone bounds CMD, which the old behaviour fails all the same, and
# every refusal is still checked under the sanitizer.
address_space=$((512 * 1024))
test_have_prereq NO_SHADOW || address_space=$(ulimit -v)
bounded()
{
	local secs=$1

	shift
	(ulimit -v $address_space && exec timeout -k 1 "$secs" "$@")
}

# ---- topology descriptions --------------------------------------------------

test_expect_success 'pack:1000000 core:1000 pu:1000 is refused from its text' '
	in_fresh_dir huge &&
	rc=0 &&
	bounded 5 "$MEMJOB" --name=j --topology-file="synthetic:pack:1000000 core:1000 pu:1000" \
		--parse-only >"$OUT" 2>"$ERR" || rc=$?
	cat "$ERR" &&
	test "$rc" = 2 &&
	stderr_has "synthetic:pack:1000000 core:1000 pu:1000" &&
	stderr_has "${SQ}pack:1000000${SQ} describe at least 1000000 CPUs, beyond memjob${SQ}s limit of 1024 CPUs" &&
	stderr_lacks "Inserting"
'

test_expect_success 'the same for --topology and a description in a file' '
	printf "# a made-up machine\npack:2\ncore:4000\npu:2\n" >desc &&
	expect_exit 2 bounded 5 "$MEMJOB" --topology-file=desc --topology 2>err &&
	grep "^memjob: --topology-file: the topology file ${SQ}desc${SQ}: its levels up to ${SQ}core:4000${SQ} describe at least 8000 CPUs" err
'

test_expect_success 'an arity past 2^64 is refused, not wrapped' '
	expect_exit 2 bounded 5 "$MEMJOB" --topology \
		--topology-file="synthetic:pack:99999999999999999999 pu:1" 2>err &&
	grep "level ${SQ}pack:99999999999999999999${SQ} has more objects than a machine" err &&
	expect_exit 2 bounded 5 "$MEMJOB" --topology \
		--topology-file="synthetic:0x10 0x40 2" 2>err &&
	grep "describe at least 2048 CPUs" err
'

test_expect_success 'the limit itself: 1024 CPUs are read, 1025 refused' '
	bounded 20 "$MEMJOB" --topology --topology-file="synthetic:pack:1 core:1024 pu:1" >topo.txt 2>err &&
	grep -c "^ *1023 " topo.txt &&
	expect_exit 2 bounded 5 "$MEMJOB" --topology \
		--topology-file="synthetic:pack:1 core:1025 pu:1" 2>err &&
	grep "describe at least 1025 CPUs" err
'

test_expect_success 'HWLOC_SYNTHETIC, which hwloc reads for this machine, is bounded too' '
	HWLOC_SYNTHETIC="pack:1000000 core:1000 pu:1000" \
		bounded 5 "$MEMJOB" --topology >out 2>err && rc=0 || rc=$?
	cat err &&
	test "$rc" = 2 &&
	grep "HWLOC_SYNTHETIC=${SQ}pack:1000000 core:1000 pu:1000${SQ}: its levels" err
'

test_expect_success 'an L3 of 99999999999999999999 bytes is refused, option and file named' '
	expect_exit 2 "$MEMJOB" --topology --topology-file="synthetic:pack:2 l3:1(size=99999999999999999999) core:4 pu:2" >out 2>err &&
	grep "^memjob: --topology-file: the topology file ${SQ}synthetic:pack:2 l3:1(size=99999999999999999999) core:4 pu:2${SQ}: size=99999999999999999999 in ${SQ}l3:1(size=99999999999999999999)${SQ} is more than a cache can hold" err &&
	! grep TiB out err &&
	printf "pack:1 l3:1(size=17GiB) core:2 pu:1\n" >desc &&
	expect_exit 2 "$MEMJOB" --topology --topology-file=desc 2>err &&
	grep "the topology file ${SQ}desc${SQ}: size=17GiB in" err &&
	printf "pack:1 l3:1(size=16GiB) core:2 pu:1\n" >desc &&
	"$MEMJOB" --topology --topology-file=desc >out &&
	grep "L3 unified 16 GiB" out
'

test_expect_success 'in hwloc XML: a cache past 2^64 bytes is refused, not printed' '
	sed -E "0,/cache_size=\"[0-9]+\"/s//cache_size=\"99999999999999999999\"/" \
		"$TOPO/vm-2cpu.xml" >big-cache.xml &&
	grep -c 99999999999999999999 big-cache.xml &&
	expect_exit 2 "$MEMJOB" --topology --topology-file=big-cache.xml >out 2>err &&
	grep "^memjob: --topology-file: the topology file ${SQ}big-cache.xml${SQ} gives CPU 0 an L3 of 2^64 bytes or more, more than a cache can hold" err &&
	! grep TiB out err
'

test_expect_success 'hwloc XML with more PUs than the limit, or past the size bound' '
	awk "/type=\"PU\"/ && !done { for (i = 2; i < 1100; i++) print \"<object type=\\\"PU\\\" os_index=\\\"\" i \"\\\"/>\"; done = 1 } { print }" \
		"$TOPO/vm-2cpu.xml" >many-pus.xml &&
	expect_exit 2 bounded 5 "$MEMJOB" --topology --topology-file=many-pus.xml 2>err &&
	grep "the topology file ${SQ}many-pus.xml${SQ}: it describes 1100 CPUs, beyond memjob${SQ}s limit of 1024 CPUs" err &&
	cp "$TOPO/vm-2cpu.xml" huge.xml &&
	truncate -s 17M huge.xml &&
	expect_exit 2 bounded 5 "$MEMJOB" --topology --topology-file=huge.xml 2>err &&
	grep "the topology file ${SQ}huge.xml${SQ}: it holds 17825792 bytes" err
'

test_expect_success 'the fixtures, real machines up to 64 CPUs, still load' '
	for f in "$TOPO"/*.xml; do
		"$MEMJOB" --topology --topology-file="$f" >out ||
			{ echo "$f refused"; exit 1; }
	done
'

# ---- job files --------------------------------------------------------------

# many_jobs N: a job file of N trivial jobs, one after the other, 3
# lines each
many_jobs()
{
	awk -v n="$1" "BEGIN { for (i = 0; i < n; i++) printf \"[j%d]\\nsize=4k\\nstonewall\\n\", i }"
}

test_expect_success 'a job file past 65536 jobs: exit 2 at its first job past the limit' '
	in_fresh_dir many &&
	many_jobs 70000 >"$TEST_TMP/many.ini" &&
	rc=0 &&
	bounded 10 "$MEMJOB" --parse-only "$TEST_TMP/many.ini" >"$OUT" 2>"$ERR" || rc=$?
	cat "$ERR" &&
	test "$rc" = 2 &&
	error_at "$TEST_TMP/many.ini:$((65536 * 3 + 1))" - \
		"job 65537 is past memjob${SQ}s limit of 65536 jobs" &&
	errors_are 1
'

# 2 s here, a quadratic parse far longer; 8 s under ASan, 15 s under
# TSan, whose builds get twice the time
test_expect_success 'the limit itself: 65536 jobs are read and checked' '
	many_jobs 65536 >limit.ini &&
	secs=60 &&
	{ test_have_prereq NO_SHADOW || secs=120; } &&
	timeout -k 1 $secs "$MEMJOB" --parse-only limit.ini
'

test_expect_success 'a name given twice among many jobs: each later one named, in file order' '
	{ many_jobs 3000 && printf "[j7]\n[j2999]\n[j7]\n"; } >twice.ini &&
	expect_exit 2 "$MEMJOB" --parse-only twice.ini 2>err &&
	grep "defined twice" err >got &&
	cat >want <<-EOF &&
	twice.ini:9001: job ${SQ}j7${SQ} is defined twice (first at twice.ini:22)
	twice.ini:9002: job ${SQ}j2999${SQ} is defined twice (first at twice.ini:8998)
	twice.ini:9003: job ${SQ}j7${SQ} is defined twice (first at twice.ini:22)
	EOF
	test_cmp want got
'

test_done
