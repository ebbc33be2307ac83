#!/bin/bash
# t0720-topology.sh - what memjob knows of the machine: --topology (normal
# and CSV) on this machine, checked against sysfs where it lists caches,
# and on the hwloc XML fixtures of the seed machines
# (MEMJOB_TOPOLOGY_FILE=t/fixtures/topo/seed004.xml: 2 sockets, 64 CPUs,
# the even ones on node 0 sharing one L3, CPU 34 the SMT sibling of CPU 2;
# seed000.xml: 4 cores, 8 threads, one L3); cpus_allowed topology words
# (llc-of, siblings-of, core-of, package-of, node, ! to remove) and their
# errors; and sizes that follow the machine (l2, llc/2, N%ram).
#
# Jobs planned for a fixture are checked with --parse-only: memjob
# resolves the words on the fixture, so a set that resolves to nothing
# says so.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

SEED004=$SRCDIR/t/fixtures/topo/seed004.xml
SEED000=$SRCDIR/t/fixtures/topo/seed000.xml
SYSCPU=/sys/devices/system/cpu
export SEED004 SEED000 SYSCPU

test_lazy_prereq SYSFS_CACHES '
	{ test -r "$SYSCPU/cpu0/cache/index0/size" &&
	  test -r "$SYSCPU/cpu0/cache/index0/level"; } ||
		{ echo "sysfs lists no cache for CPU 0 here (t0725 covers CPUID)"; exit 1; }
	taskset -c 0 true || { echo "CPU 0 is not ours to use"; exit 1; }
'

# sysfs_bytes TEXT: a sysfs cache size (32K, 1024K, 36608K, 2M) in bytes.
sysfs_bytes()
{
	case $1 in
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*G) echo $((${1%G} * 1073741824)) ;;
	*) echo "$1" ;;
	esac
}

# human BYTES: the size as --topology prints it: the largest binary unit,
# up to two decimals, trailing zeros dropped ("32 KiB", "35.75 MiB").
human()
{
	awk -v b="$1" 'BEGIN {
		split("B KiB MiB GiB TiB", u, " ")
		i = 1
		while (i < 5 && b >= 1024 ^ i) i++
		s = sprintf("%.2f", b / 1024 ^ (i - 1))
		sub(/0+$/, "", s); sub(/\.$/, "", s)
		print s " " u[i]
	}'
}

# cache_of CPU LEVEL [TYPE]: the sysfs index directory of that cache.
cache_of()
{
	local d
	for d in "$SYSCPU/cpu$1"/cache/index[0-9]*; do
		[ "$(cat "$d/level")" = "$2" ] || continue
		[ -z "${3:-}" ] || [ "$(cat "$d/type")" = "$3" ] || continue
		echo "$d"
		return 0
	done
	echo "cache_of: cpu$1 has no L$2 ${3:-} cache" >&2
	return 1
}

# llc_of CPU: the sysfs directory of the CPU's last-level cache.
llc_of()
{
	local d best='' lvl=0
	for d in "$SYSCPU/cpu$1"/cache/index[0-9]*; do
		[ "$(cat "$d/type")" = Instruction ] && continue
		if [ "$(cat "$d/level")" -gt "$lvl" ]; then
			lvl=$(cat "$d/level")
			best=$d
		fi
	done
	[ -n "$best" ] && echo "$best"
}

# csv_at FILE COL KEYCOL=VALUE...: COL of the first row matching, quotes
# removed (the topology CSV quotes CPU lists with commas).
csv_at()
{
	local v

	v=$(csv_get "$@") && [ -n "$v" ] || { echo "csv_at: no row $*" >&2; return 1; }
	printf '%s\n' "${v%%$'\n'*}"
}

# parse_ok ROOT ARGS...: memjob --parse-only accepts ARGS with the
# topology of ROOT.
parse_ok()
{
	local root=$1
	shift
	MEMJOB_TOPOLOGY_FILE=$root "$MEMJOB" --parse-only "$@"
}

# in_word ROOT CPU WORD: on ROOT's topology, WORD holds CPU: "CPU,!WORD"
# is refused as leaving no CPU.
in_word()
{
	in_fresh_dir "in-$2-${3//[:!]/_}-${1##*/}" &&
	MEMJOB_TOPOLOGY_FILE=$1 refuses --name=a --size=64k --cpus_allowed="$2,!$3" &&
	error_at "command line:3" cpus_allowed "leaves no CPU" &&
	errors_are 1
}

# not_in_word ROOT CPU WORD: on ROOT's topology, WORD does not hold CPU (0
# or 1, which this process may use): "CPU,!WORD" is accepted.
not_in_word()
{
	if ! parse_ok "$1" --name=a --size=64k --cpus_allowed="$2,!$3"; then
		echo "not_in_word: $2,!$3 refused on ${1##*/}"
		return 1
	fi
}

# ---- --topology on this machine ------------------------------------------------

test_expect_success SYSFS_CACHES '--topology gives cpu0 caches with their sysfs sizes' '
	"$MEMJOB" --topology >out &&
	cat out &&
	n=0 &&
	for d in "$SYSCPU"/cpu0/cache/index[0-9]*; do
		lvl=$(cat "$d/level") &&
		type=$(tr "[:upper:]" "[:lower:]" <"$d/type") &&
		size=$(human "$(sysfs_bytes "$(cat "$d/size")")") &&
		echo "want: L$lvl $type $size" &&
		name=L$lvl &&
		if [ "$lvl" = 1 ]; then name=L1$(echo "$type" | cut -c1); fi &&
		grep -F "  $name $type $size, " out || exit 1
		n=$((n + 1))
	done &&
	test "$n" -ge 3 &&
	grep "^$(getconf _NPROCESSORS_ONLN) CPUs" out &&
	grep "^caches, from sysfs:" out &&
	grep "^RAM: " out
'

test_expect_success SYSFS_CACHES '--topology csv: a row per CPU per cache, as sysfs says' '
	"$MEMJOB" --topology --output-format=csv >out.csv &&
	head -n 1 out.csv &&
	test "$(head -n 1 out.csv)" = "cpu,core,package,node,siblings,level,type,size,line,ways,sets,shared_cpus,allowed,kind,source" &&
	want=$(ls -d "$SYSCPU"/cpu[0-9]*/cache/index[0-9]* | wc -l) &&
	test "$(csv_rows out.csv)" = "$want" &&
	for d in "$SYSCPU"/cpu0/cache/index[0-9]*; do
		lvl=$(cat "$d/level") &&
		type=$(tr "[:upper:]" "[:lower:]" <"$d/type") &&
		test "$(csv_at out.csv size cpu=0 level=$lvl type=$type)" = \
			"$(sysfs_bytes "$(cat "$d/size")")" &&
		test "$(csv_at out.csv shared_cpus cpu=0 level=$lvl type=$type)" = \
			"$(cat "$d/shared_cpu_list")" &&
		test "$(csv_at out.csv ways cpu=0 level=$lvl type=$type)" = \
			"$(cat "$d/ways_of_associativity")" || exit 1
	done &&
	test "$(csv_at out.csv siblings cpu=0 level=1 type=data)" = \
		"$(cat "$SYSCPU/cpu0/topology/thread_siblings_list")"
'

test_expect_success '--topology with a bad --output-format is refused' '
	in_fresh_dir badfmt &&
	refuses --topology --output-format=yaml &&
	stderr_has "output-format"
'

test_expect_success 'MEMJOB_TOPOLOGY_FILE that does not exist: exit 2, says so' '
	MEMJOB_TOPOLOGY_FILE=$TEST_TMP/nothing-here &&
	export MEMJOB_TOPOLOGY_FILE &&
	in_fresh_dir nofile &&
	refuses --topology &&
	stderr_has "MEMJOB_TOPOLOGY_FILE: cannot read the topology file" &&
	stderr_has "nothing-here${SQ}: No such file"
'

# ---- --topology on the fixtures ---------------------------------------------------

test_expect_success 'seed004: 64 CPUs, the L3 of the even CPUs, 2 and 34 siblings' '
	MEMJOB_TOPOLOGY_FILE=$SEED004 "$MEMJOB" --topology >out &&
	cat out &&
	grep "^64 CPUs (0-63): 2 packages" out &&
	grep "2 threads per core" out &&
	evens=$(seq -s, 0 2 62) && odds=$(seq -s, 1 2 63) &&
	sed -n "/^  L3 /,/^SMT/p" out | sed "1d;\$d" | tr -d " \n" >l3 &&
	echo >>l3 &&
	echo "$evens$odds" >expect &&
	test_cmp expect l3 &&
	grep "L3 unified 22 MiB, 64 B lines, 11-way" out &&
	sed -n "/^SMT siblings/,/^CPUs/p" out | grep -w "2,34" &&
	grep "node 0: 96 GiB, CPUs 0,2,4," out &&
	grep "node 1: 96 GiB, CPUs 1,3,5," out
'

test_expect_success 'seed004 csv: 256 rows; CPU 2 shares its L3 with the evens' '
	MEMJOB_TOPOLOGY_FILE=$SEED004 "$MEMJOB" --topology --output-format=csv >out.csv &&
	test "$(csv_rows out.csv)" = 256 &&
	test "$(csv_at out.csv shared_cpus cpu=2 level=3)" = "$(seq -s, 0 2 62)" &&
	test "$(csv_at out.csv shared_cpus cpu=3 level=3)" = "$(seq -s, 1 2 63)" &&
	test "$(csv_at out.csv size cpu=2 level=3)" = 23068672 &&
	test "$(csv_at out.csv siblings cpu=2 level=1)" = "2,34" &&
	test "$(csv_at out.csv siblings cpu=34 level=1)" = "2,34" &&
	test "$(csv_at out.csv shared_cpus cpu=2 level=2)" = "2,34" &&
	test "$(csv_at out.csv node cpu=35 level=1)" = 1 &&
	test "$(csv_at out.csv package cpu=34 level=1)" = 0 &&
	# one row per CPU and cache: each CPU appears 4 times
	test "$(cut -d, -f1 out.csv | sed 1d | sort -n | uniq -c | awk "\$1 != 4" | wc -l)" = 0
'

test_expect_success 'seed000: 8 CPUs, 4 cores, one L3 of 6 MiB for all' '
	MEMJOB_TOPOLOGY_FILE=$SEED000 "$MEMJOB" --topology >out &&
	grep "^8 CPUs (0-7): 1 package, 4 cores, 2 threads per core" out &&
	grep "L1d data 48 KiB" out &&
	grep "L2 unified 512 KiB" out &&
	grep "L3 unified 6 MiB" out &&
	MEMJOB_TOPOLOGY_FILE=$SEED000 "$MEMJOB" --topology --output-format=csv >out.csv &&
	test "$(csv_rows out.csv)" = 32 &&
	test "$(csv_at out.csv shared_cpus cpu=5 level=3)" = 0-7 &&
	test "$(csv_at out.csv siblings cpu=1 level=1)" = "1,5"
'

# ---- cpus_allowed words, resolved on the fixtures -----------------------------------

test_expect_success 'seed004: llc-of:2 holds CPU 0 but not CPU 1' '
	in_word "$SEED004" 0 llc-of:2 &&
	not_in_word "$SEED004" 1 llc-of:2 &&
	in_word "$SEED004" 0 llc-of:62 &&
	# seed000 has one L3 for all
	in_word "$SEED000" 1 llc-of:2
'

test_expect_success 'seed004: a split numjobs sweep sees the CPUs the words leave' '
	MEMJOB_TOPOLOGY_FILE=$SEED004 "$MEMJOB" --parse-only --name=a --size=64k \
		--cpus_allowed="0-1,!llc-of:2" --cpus_allowed_policy=split \
		--sweep=numjobs:1,2 2>err &&
	cat err &&
	grep "numjobs=2 left out: cpus_allowed=0-1,!llc-of:2 gives 1 CPU" err &&
	! grep "numjobs=1 left out" err
'

test_expect_success 'seed004: 34 is in siblings-of:2 and core-of:2, 1 is not' '
	for w in siblings-of:2 core-of:2 siblings-of:34; do
		in_word "$SEED004" 34 $w &&
		not_in_word "$SEED004" 1 $w &&
		not_in_word "$SEED004" 0 $w || exit 1
	done &&
	in_word "$SEED004" 33 core-of:1
'

test_expect_success 'seed004: CPU 1 is on node 1 and package 1, CPU 0 on the 0s' '
	in_word "$SEED004" 1 node:1 &&
	not_in_word "$SEED004" 0 node:1 &&
	in_word "$SEED004" 0 node:0 &&
	not_in_word "$SEED004" 1 node:0 &&
	in_word "$SEED004" 1 package-of:3 &&
	not_in_word "$SEED004" 1 package-of:0 &&
	in_word "$SEED004" 0 all &&
	in_word "$SEED004" 1 all
'

test_expect_success 'seed000: siblings are c and c+4' '
	in_word "$SEED000" 1 core-of:5 &&
	in_word "$SEED000" 1 siblings-of:5 &&
	not_in_word "$SEED000" 0 core-of:5 &&
	in_word "$SEED000" 0 package-of:7 &&
	in_word "$SEED000" 1 node:0
'

test_expect_success 'words on this machine: llc-of:0,!core-of:0 for a split sweep' '
	# the last-level cache and the core of CPU 0, as --topology lists them
	# (from sysfs, or CPUID where sysfs lists no cache)
	"$MEMJOB" --topology --output-format=csv >topo.csv &&
	lvl=$(awk -F, "\$1 == 0 && \$7 != \"instruction\" { l = \$6 } END { print l }" topo.csv) &&
	test -n "$lvl" &&
	shared=$(csv_at topo.csv shared_cpus cpu=0 level=$lvl) &&
	core=$(csv_at topo.csv siblings cpu=0 level=1) &&
	# how many CPUs share the LLC of CPU 0, its own core left out
	all=$(echo "$shared" | tr , "\n" |
	      awk -F- "{ if (NF == 2) n += \$2 - \$1 + 1; else n++ } END { print n }") &&
	mine=$(echo "$core" | tr , "\n" |
	      awk -F- "{ if (NF == 2) n += \$2 - \$1 + 1; else n++ } END { print n }") &&
	n=$((all - mine)) &&
	echo "llc-of:0 has $all CPUs, core-of:0 $mine: $n left" &&
	if [ "$n" -eq 0 ]; then
		in_fresh_dir here &&
		refuses --name=a --size=64k --cpus_allowed="llc-of:0,!core-of:0" &&
		error_at "command line:3" cpus_allowed "leaves no CPU"
	else
		"$MEMJOB" --output-format=csv --name=a --size=64k \
			--cpus_allowed="llc-of:0,!core-of:0" \
			--cpus_allowed_policy=split \
			--sweep=numjobs:$n,$((n + 1)) >out.csv 2>err &&
		cat err &&
		grep "numjobs=$((n + 1)) left out" err &&
		test "$(csv_rows out.csv)" = 1 &&
		test "$(csv_col out.csv clones)" = "$n"
	fi
'

# ---- cpus_allowed errors -------------------------------------------------------------

test_expect_success 'llc-of:99: the CPU does not exist' '
	in_fresh_dir e99 &&
	MEMJOB_TOPOLOGY_FILE=$SEED004 refuses --name=a --size=64k --cpus_allowed=llc-of:99 &&
	error_at "command line:3" cpus_allowed "${SQ}llc-of:99${SQ}" \
		"CPU 99 does not exist" "0-63" &&
	errors_are 1 &&
	refuses --name=a --size=64k --cpus_allowed=llc-of:99 &&
	error_at "command line:3" cpus_allowed "CPU 99 does not exist"
'

test_expect_success 'llc-of:0,!llc-of:0 leaves no CPU' '
	in_fresh_dir empty &&
	refuses --name=a --size=64k --cpus_allowed="llc-of:0,!llc-of:0" &&
	error_at "command line:3" cpus_allowed \
		"${SQ}llc-of:0,!llc-of:0${SQ}" "leaves no CPU" &&
	errors_are 1
'

test_expect_success 'lcc-of:0: unknown word, did you mean llc-of' '
	in_fresh_dir typo &&
	refuses --name=a --size=64k --cpus_allowed=lcc-of:0 &&
	error_at "command line:3" cpus_allowed "${SQ}lcc-of${SQ}" \
		"did you mean ${SQ}llc-of${SQ}" &&
	errors_are 1
'

test_expect_success 'node:7: no such NUMA node' '
	in_fresh_dir node7 &&
	MEMJOB_TOPOLOGY_FILE=$SEED004 refuses --name=a --size=64k --cpus_allowed=node:7 &&
	error_at "command line:3" cpus_allowed "node 7 does not exist" "0-1" &&
	errors_are 1 &&
	refuses --name=a --size=64k --cpus_allowed=node:7 &&
	error_at "command line:3" cpus_allowed "node 7 does not exist"
'

test_expect_success 'errors in a job file name the file and the line' '
	write_file w.ini <<-\EOF &&
	[a]
	size=64k

	cpus_allowed=llc-of:0,siblings-off:0
	EOF
	in_fresh_dir infile &&
	refuses "$TEST_TMP/w.ini" &&
	error_at "$TEST_TMP/w.ini:4" cpus_allowed "${SQ}siblings-off${SQ}" \
		"did you mean ${SQ}siblings-of${SQ}" &&
	errors_are 1
'

# ---- sizes that follow the machine ------------------------------------------------------

test_expect_success SYSFS_CACHES 'size=l2 is the L2 of the job CPU, in bytes' '
	want=$(sysfs_bytes "$(cat "$(cache_of 0 2)/size")") &&
	"$MEMJOB" --output-format=csv --name=a --cpus_allowed=0 --size=l2 \
		--kernel=count >out.csv &&
	test "$(csv_col out.csv size)" = "$want" &&
	test "$(csv_col out.csv bytes)" = "$want" &&
	test "$(csv_col out.csv status)" = ok
'

test_expect_success SYSFS_CACHES 'size=llc/2 and 2*l1d' '
	llc=$(sysfs_bytes "$(cat "$(llc_of 0)/size")") &&
	l1d=$(sysfs_bytes "$(cat "$(cache_of 0 1 Data)/size")") &&
	"$MEMJOB" --output-format=csv --name=a --cpus_allowed=0 --size=llc/2 \
		--name=b --cpus_allowed=0 --size=2*l1d >out.csv &&
	test "$(csv_col out.csv size 1)" = $((llc / 2)) &&
	test "$(csv_col out.csv size 2)" = $((2 * l1d))
'

test_expect_success 'size=1%ram is 1% of MemTotal' '
	mem=$(awk "/^MemTotal:/ { print \$2 }" /proc/meminfo) &&
	want=$((mem * 1024 / 100)) &&
	"$MEMJOB" --output-format=csv --name=a --size=1%ram --bs=1m >out.csv &&
	test "$(csv_col out.csv size)" = "$want" &&
	test "$(csv_col out.csv bytes)" = "$want"
'

test_expect_success 'relative sizes on the fixtures: --dump says what they are' '
	MEMJOB_TOPOLOGY_FILE=$SEED004 "$MEMJOB" --dump --name=a --size=llc >d4 &&
	grep -F "size=llc is 22m (23068672 bytes)" d4 &&
	MEMJOB_TOPOLOGY_FILE=$SEED000 "$MEMJOB" --dump --name=a --size=l1d \
		--cpus_allowed=1 >d0 &&
	grep -F "(49152 bytes)" d0 &&
	# seed000 MemTotal is 7729028 kB
	MEMJOB_TOPOLOGY_FILE=$SEED000 "$MEMJOB" --dump --name=a --size=1%ram >dr &&
	grep -F "($((7729028 * 1024 / 100)) bytes)" dr &&
	# the dump keeps the expression, and reads back the same
	grep -x "size=1%ram" dr &&
	MEMJOB_TOPOLOGY_FILE=$SEED000 "$MEMJOB" --dump dr >dr2 &&
	test_cmp dr dr2
'

test_expect_success 'size=l9: no such cache, one error' '
	in_fresh_dir l9 &&
	refuses --name=a --size=l9 &&
	error_at "command line:2" size "${SQ}l9${SQ}" "no L9 cache" &&
	errors_are 1
'

test_expect_success 'size=llc/0: division by zero, one error' '
	in_fresh_dir div0 &&
	refuses --name=a --size=llc/0 &&
	error_at "command line:2" size "${SQ}llc/0${SQ}" "division by zero" &&
	errors_are 1
'

test_expect_success 'size=5%rams: not a percentage of RAM, one error' '
	in_fresh_dir rams &&
	refuses --name=a --size=5%rams &&
	error_at "command line:2" size "${SQ}5%rams${SQ}" "%ram" &&
	errors_are 1
'

test_done
