#!/bin/bash
# t0755-footprint.sh - the footprint table after a sweep of a kernel's
# footprint (kernel=codewalk over code_size, by batch): the smallest
# footprint is the baseline, each larger one's "above" figure is its
# ns_per_item less the baseline's (checked against the CSV of the same
# run), and the baseline is set against the L1i size the topology gives:
# inside it, larger than it, or not known.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

test_lazy_prereq CODEWALK '
	"$MEMJOB" --parse-only --name=c --kernel=codewalk 2>&1 >/dev/null | head -n 1
	test "${PIPESTATUS[0]}" = 0
'

TOPO=$SRCDIR/t/fixtures/topo
export TOPO

# a 2 x 3 grid of 20 ms points, written in the order code_size 8k, 2k, 4k
# so that the baseline must be found, not taken as the first
cat >"$TEST_TMP/grid.ini" <<'INI'
[cw]
kernel=codewalk
runtime=20ms
time_based=1
sweep=code_size:${SIZES:-8k,2k,4k}
sweep=batch:1,4
INI

# table BATCH: the footprint table of batch=BATCH in out, its rows only
table()
{
	awk -v want="footprint: job 'cw' {batch=$1}," '
		index($0, want) == 1 { on = 1; next }
		on && /^$/ { exit }
		on && /^  [0-9]/ { print }' out
}

test_expect_success CODEWALK 'a grid of code_size x batch gets a table per batch' '
	HWLOC_XMLFILE=$TOPO/vm-2cpu.xml "$MEMJOB" \
		--output-format=normal,csv grid.ini >all &&
	sed "/^host,/,\$d" all >out &&
	sed -n "/^host,/,\$p" all >out.csv &&
	test "$(csv_rows out.csv)" = 6 &&
	test "$(grep -c "^footprint: job ${SQ}cw${SQ} {batch=[14]}, the cost that grows with code_size: wall ns per item (median over runs) above the baseline$" out)" = 2 &&
	grep "^  code_size  *ns per item  *above: per item  *per call (x4)  *batch=1${SQ}s rise / this$" out
'

test_expect_success CODEWALK 'the baseline is the smallest footprint, inside L1i' '
	for b in 1 4; do
		table $b >rows.$b &&
		test "$(wc -l <rows.$b)" = 3 &&
		head -1 rows.$b | grep "^  2k  *[0-9.]*  *baseline$" &&
		sed -n 2p rows.$b | grep "^  4k " &&
		sed -n 3p rows.$b | grep "^  8k " || exit 1
	done &&
	test "$(grep -c "^  baseline: code_size=2k, the smallest swept (2 KiB), [0-9.]* ns per item: inside L1i (32 KiB) of CPU 0$" out)" = 2
'

# ns BATCH SIZE: ns_per_item of that point in out.csv
ns()
{
	csv_get out.csv ns_per_item sweep_batch="$1" sweep_code_size="$2"
}

test_expect_success CODEWALK 'above baseline = ns_per_item(point) - ns_per_item(baseline), per item and per call' '
	for b in 1 4; do
		base=$(ns $b 2k) &&
		for s in 4k 8k; do
			v=$(ns $b $s) &&
			row=$(grep "^  $s " rows.$b) &&
			echo "batch $b $s: csv $v - $base; table: $row" &&
			awk -v v="$v" -v base="$base" -v b=$b -v row="$row" "
			BEGIN {
				split(row, f, \" +\")
				d = v - base
				if (f[3] - v > 0.006 || v - f[3] > 0.006) exit 1
				if (f[4] - d > 0.011 || d - f[4] > 0.011) exit 1
				if (f[5] - d * b > 0.011 * b || d * b - f[5] > 0.011 * b) exit 1
			}" || exit 1
		done
	done
'

test_expect_success CODEWALK 'batch 1 rise over this one: the ratio of the two above figures' '
	for s in 4k 8k; do
		r1=$(grep "^  $s " rows.1 | awk "{ print \$4 }") &&
		r4=$(grep "^  $s " rows.4) &&
		echo "$s: batch 1 +$r1; batch 4: $r4" &&
		case $r4 in
		*" -") awk -v a="$r1" -v r="$r4" "BEGIN { split(r, f, \" +\"); exit !(a <= 0 || f[4] <= 0) }" ;;
		*) # both rises are printed to 0.01 and the ratio is taken
		   # before rounding: it must lie within what the printed
		   # rises allow (a rise of +0.17 is 0.165..0.175)
		   awk -v a="$r1" -v r="$r4" "BEGIN {
			split(r, f, \" +\"); x = f[6]; sub(/x\$/, \"\", x)
			x += 0; b = f[4]; lo = (a - 0.005) / (b + 0.005)
			hi = b > 0.005 ? (a + 0.005) / (b - 0.005) : 1e300
			exit !(x >= lo - 0.006 && x <= hi + 0.006) }" ;;
		esac || exit 1
	done
'

test_expect_success CODEWALK 'a smallest footprint larger than L1i is not called L1i-resident' '
	SIZES=64k,128k HWLOC_XMLFILE=$TOPO/vm-2cpu.xml "$MEMJOB" grid.ini >out &&
	test "$(grep -c "^  baseline: code_size=64k, the smallest swept (64 KiB), [0-9.]* ns per item: larger than L1i (32 KiB) of CPU 0: not L1i-resident, so the baseline already holds part of the footprint${SQ}s cost$" out)" = 2 &&
	! grep "inside L1i" out
'

test_expect_success CODEWALK 'an L1i of unknown size: the baseline says so' '
	SIZES=2k,4k HWLOC_SYNTHETIC="pack:1 core:2 pu:1" "$MEMJOB" grid.ini >out &&
	grep "^topology: .*caches from nowhere" out &&
	test "$(grep -c "^  baseline: code_size=2k, the smallest swept (2 KiB), [0-9.]* ns per item: the size of CPU 0${SQ}s L1i is not known (neither sysfs nor CPUID lists it; --topology-file describes the machine), so whether the baseline stays in L1i is not known$" out)" = 2 &&
	! grep "inside L1i" out
'

test_expect_success CODEWALK 'one footprint, or a kernel without one: no table' '
	SIZES=2k HWLOC_XMLFILE=$TOPO/vm-2cpu.xml "$MEMJOB" grid.ini >out &&
	! grep "^footprint" out &&
	"$MEMJOB" --name=c --kernel=chase --size=64k --runtime=20ms \
		--time_based >out &&
	! grep "^footprint" out
'

test_done
