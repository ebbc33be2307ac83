#!/bin/bash
# t0744-isolate-level.sh - the dirty level each phase started from: the
# machine's Dirty and Writeback at a file job's release, in source_info
# (the normal report), the CSV columns start_dirty_kb, start_writeback_kb,
# isolated and isolate_wait_ms, and JSON; and isolate_dirty's wait before
# each later run, bounded by isolate_wait, said when the level was not
# reached.
#
# Files are 64 KiB to 16 MiB in the test's directory: the script takes a
# few seconds.

# test: alone, the dirty level it reads is the whole machine's
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. "$(dirname "$0")/lib.sh"

test_expect_success 'every file job has its start level; a job without a file has none' '
	"$MEMJOB" --output-format=csv --stonewall --size=64k \
		--name=f --ioengine=psync --rw=write --bs=4k --filename=f.dat \
		--name=m --ioengine=mem --kernel=fill >out.csv &&
	d=$(csv_col out.csv start_dirty_kb 1) &&
	w=$(csv_col out.csv start_writeback_kb 1) &&
	echo "f started with Dirty $d KiB, Writeback $w KiB" &&
	test "$d" -ge 0 && test "$w" -ge 0 &&
	test "$(csv_col out.csv isolated 1)" = 1 &&
	test "$(csv_col out.csv start_dirty_kb 2)" = "" &&
	test "$(csv_col out.csv isolated 2)" = "" &&
	# the first run waits for nothing: nothing of memjob came before it
	test "$(csv_col out.csv isolate_wait_ms 1)" = ""
'

test_expect_success 'the text and the columns give the same level' '
	"$MEMJOB" --output-format=csv --name=f --ioengine=psync --rw=write \
		--bs=4k --size=64k --filename=f.dat >out.csv &&
	info=$(csv_col out.csv source_info) &&
	kb=$(csv_col out.csv start_dirty_kb) &&
	echo "$info; $kb KiB" &&
	echo "$info" | awk -v kb="$kb" "
		match(\$0, /Dirty [0-9.]+ [KMGT]?i?B/) {
			split(substr(\$0, RSTART, RLENGTH), a, \" \")
			m = a[3] == \"B\" ? 1 / 1024 : a[3] == \"KiB\" ? 1 : \\
			    a[3] == \"MiB\" ? 1024 : 1048576
			v = a[2] * m
			exit !(v <= kb * 1.01 + 1 && v >= kb * 0.99 - 1)
		}
		END { if (!RLENGTH) exit 1 }"
'

test_expect_success 'each point of a sweep has its start level, and the later ones the wait' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --filename=s.dat --sweep=size:64k,128k,64k \
		--isolate_dirty=1t >out.csv &&
	test "$(csv_col out.csv isolate_wait_ms 1)" = "" &&
	for row in 1 2 3; do
		csv_col out.csv start_dirty_kb $row | grep -E "^[0-9]+$" ||
			return 1
	done &&
	# 1 TiB is reached at once: no wait to speak of, and none said
	for row in 2 3; do
		awk -v t="$(csv_col out.csv isolate_wait_ms $row)" \
			"BEGIN { exit !(t != \"\" && t < 1000) }" || return 1
	done &&
	! grep -E "waiting for|still above" out.csv
'

test_expect_success 'a level not reached in isolate_wait is said, and the run goes on' '
	# The first group leaves 64 MiB dirty (dd, no sync), which the kernel
	# writes back only after vm.dirty_expire_centisecs (30 s): the level
	# before the first run (or 4 KiB) is not reached again in 0.3 s.
	cat >late.ini <<-\INI &&
	[dirty]
	ioengine=none
	kernel=exec
	command=dd if=/dev/zero of=dirty.dat bs=1M count=64 status=none
	[w]
	stonewall
	ioengine=psync
	rw=write
	bs=4k
	size=64k
	filename=w.dat
	isolate_dirty=4k
	isolate_wait=300ms
	INI
	"$MEMJOB" --output-format=csv late.ini >out.csv &&
	test "$(lines out.csv status)" = "ok ok" &&
	t=$(csv_col out.csv isolate_wait_ms 2) &&
	info=$(csv_col out.csv source_info 2) &&
	echo "waited $t ms: $info" &&
	awk -v t="$t" "BEGIN { exit !(t >= 300 && t < 5000) }" &&
	echo "$info" | grep -E "^started with Dirty [0-9.]+ [KMGT]?i?B, Writeback [0-9.]+ [KMGT]?i?B \(still above [0-9.]+ [KMGT]?i?B after 0\.[3-9] s\)$" &&
	test "$(csv_col out.csv start_dirty_kb 2)" -gt 4
'

test_expect_success 'isolate_dirty=0 waits for nothing' '
	"$MEMJOB" --output-format=csv --name=w --ioengine=psync --rw=write \
		--bs=4k --size=64k --filename=w.dat --repeat=2 \
		--isolate_dirty=0 >out.csv &&
	test "$(lines out.csv isolate_wait_ms)" = "" &&
	test "$(lines out.csv isolated)" = "1 1"
'

test_expect_success JQ 'JSON: the start level as numbers' '
	"$MEMJOB" --output-format=json --name=w --ioengine=psync --rw=write \
		--bs=4k --size=64k --filename=w.dat --repeat=2 >out.json &&
	jq -e "[.results[] | (.start_dirty_kb | type == \"number\") and
		(.start_writeback_kb | type == \"number\") and
		(.isolated == 1)] | all" out.json &&
	jq -e ".results[0].isolate_wait_ms == null and
		(.results[1].isolate_wait_ms | type == \"number\")" out.json
'

test_expect_success 'dirty-cliff: every point reports the level it started from' '
	SIZES=64k,128k,256k DIR=. SAMPLE_LOG=cliff.csv "$MEMJOB" \
		--output-format=csv "$SRCDIR/jobs/dirty-cliff.ini" >out.csv &&
	test "$(csv_rows out.csv)" = 3 &&
	for row in 1 2 3; do
		csv_col out.csv start_dirty_kb $row | grep -E "^[0-9]+$" &&
		csv_col out.csv source_info $row | grep "started with Dirty" ||
			return 1
	done &&
	csv_col out.csv source_info 2 | grep "^a fresh file; " &&
	test_path_is_missing memjob-dirty-cliff.dat
'

test_done
