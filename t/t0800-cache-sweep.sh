#!/bin/bash
# t0800-cache-sweep.sh - the working-set sweep of seed 000 end to end:
# jobs/cache-sweep.ini shrunk to the sizes around L1d and L2, the page
# layout (with chase_layout=random on 4 KiB pages the TLB makes a knee at
# 256 KiB of its own; past the L1 the prefetchers lower page layout's
# plateaus, not where they end) with and without huge pages,
# short runs; the knee table memjob prints after it (the L1d and L2 knees
# must be within a factor of 2 of the sizes this machine's topology gives);
# and memjob plot turning its CSV into a PNG.
#
# The sweep takes about 10 s on a 2-CPU VM.  Tests that need gnuplot skip
# without it (CI installs gnuplot-nox); the others run everywhere.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq GNUPLOT 'command -v gnuplot'

# The sizes a sweep needs to see the L1d and L2 knees of a machine with an
# L1d of 32-48 KiB and an L2 of 0.5-2 MiB: plateaus first, then two sizes
# past each knee to confirm it.
export SIZES=8k,12k,16k,24k,32k,48k,64k,96k,128k,192k,256k,384k,512k,768k,1m,1536k,2m,3m,4m,6m
export LAYOUTS=page PAGES=none,thp RUNTIME=50ms REPEAT=3

# sysfs_cache LEVEL: the size in bytes of CPU 0's data or unified cache at
# LEVEL, as memjob --topology gives it (from sysfs, or CPUID where sysfs
# lists no cache); empty if none.
sysfs_cache()
{
	"$MEMJOB" --topology --output-format=csv |
	awk -F, -v lv="$1" '$1 == 0 && $6 == lv && ($7 == "data" || $7 == "unified") { print $8; exit }'
}

# to_bytes "32K" | "32 KiB" | "35.75 MiB" | "1536": bytes, as an integer.
to_bytes()
{
	echo "$1" | awk '{
		v = $0; gsub(/[ \t]/, "", v); m = 1
		if (v ~ /(K|KiB)$/) m = 1024
		else if (v ~ /(M|MiB)$/) m = 1048576
		else if (v ~ /(G|GiB)$/) m = 1073741824
		sub(/[A-Za-z]+$/, "", v)
		printf "%.0f\n", v * m
	}'
}

# csv_awk FILE PROGRAM: awk over FILE's data rows, where col["name"] is
# the number of the (first) column of that name.
csv_awk()
{
	awk -F, '
	NR == 1 { for (i = NF; i >= 1; i--) col[$i] = i; next }
	'"$2" "$1"
}

# all_ok FILE: every row ran and has a latency.
all_ok()
{
	csv_awk "$1" '
	$col["status"] != "ok" || !($col["ns_per_item"] > 0) {
		print "bad row: " $0; bad = 1
	}
	END { exit bad }'
}

# staircase FILE: the fastest access in L1 (up to 16 KiB), in L2
# (128-512 KiB) and past it (4 MiB and up) grows by 1.5x at least.  The
# minimum, because on a busy machine noise only ever makes a chase slower.
staircase()
{
	csv_awk "$1" '
	{ s = $col["size"]; v = $col["ns_per_item"] }
	s <= 16384 && (!l1 || v < l1) { l1 = v }
	s >= 131072 && s <= 524288 && (!l2 || v < l2) { l2 = v }
	s >= 4194304 && (!m || v < m) { m = v }
	END {
		printf "fastest: L1 %.2f ns, L2 %.2f ns, 4 MiB and up %.2f ns\n",
		       l1, l2, m
		exit !(l1 > 0 && l1 * 1.5 < l2 && l2 * 1.5 < m)
	}'
}

# png_ok FILE: FILE starts with the PNG signature and is over 8 KB (an
# empty 1100x700 chart is already larger).
png_ok()
{
	[ -f "$1" ] || { echo "no file $1" >&2; return 1; }
	sig=$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || {
		echo "$1 does not start with the PNG signature: $sig" >&2
		return 1
	}
	size=$(wc -c <"$1")
	echo "$1: $size bytes"
	[ "$size" -gt 8192 ]
}

test_expect_success 'the shipped cache-sweep.ini parses, as is and shrunk' '
	env -u SIZES -u LAYOUTS -u PAGES -u RUNTIME -u REPEAT \
		"$MEMJOB" --parse-only "$SRCDIR/jobs/cache-sweep.ini" &&
	"$MEMJOB" --parse-only "$SRCDIR/jobs/cache-sweep.ini"
'

test_expect_success 'setup: a reduced cache sweep (normal and CSV)' '
	"$MEMJOB" --output-format=normal,csv "$SRCDIR/jobs/cache-sweep.ini" \
		>sweep.out &&
	host=$(hostname) &&
	grep -E "^(host|$host)," sweep.out >sweep.csv &&
	mkdir -p keep && cp sweep.out sweep.csv keep/
'

test_expect_success 'one row per page size, size and repeat, all ok' '
	cd keep &&
	n=$(echo "$SIZES" | tr , "\n" | wc -l) &&
	test "$(csv_rows sweep.csv)" = $((2 * n * 3)) &&
	all_ok sweep.csv &&
	grep -q ",chase_layout=page hugepage=thp size=768k," sweep.csv &&
	test "$(csv_col sweep.csv kernel)" = chase
'

test_expect_success TIMING 'L1 is faster than L2, and L2 faster than 4 MiB and up' '
	staircase keep/sweep.csv
'

# The knee table, one per series (hugepage none and thp):
#   "  L1d       32 KiB    1.51 ns     48 KiB  1.51 ns up to 32 KiB, ..."
# (knee_print in engine/knee.c: name, size, plateau, knee, verdict).
test_expect_success TIMING 'the L1d and L2 knees are within a factor of 2 of sysfs' '
	cd keep &&
	for lv in 1 2; do
		if [ $lv = 1 ]; then name=L1d; else name=L2; fi &&
		want=$(sysfs_cache $lv) &&
		test -n "$want" &&
		grep "^  $name " sweep.out >"$TEST_TMP/lines" &&
		cat "$TEST_TMP/lines" &&
		test "$(wc -l <"$TEST_TMP/lines")" = 2 &&
		while IFS= read -r line; do
			sysfs=$(to_bytes "${line:8:10}") &&
			knee=$(to_bytes "${line:30:10}") &&
			test "$sysfs" = "$want" &&
			test "$knee" -gt 0 &&
			test $((knee * 2)) -ge "$want" &&
			test "$knee" -le $((want * 2)) &&
			! echo "$line" | grep -q "far from\|no knee" || {
				echo "bad $name knee: $line"; exit 1; }
		done <"$TEST_TMP/lines"
	done
'

# Page layout's plateaus are lowered by the prefetchers past the L1; each
# of its knee tables (hugepage none and thp) says so under the table.
test_expect_success 'a page-layout knee table says the prefetchers lower its plateaus' '
	cd keep &&
	{ ! grep "no cache of CPU" sweep.out ||
		test_skip_now "no cache of this machine is known: no knee table"; } &&
	test "$(grep -c "^knees: job .chase. {chase_layout=page" sweep.out)" = 2 &&
	test "$(grep -c "^  chase_layout=page: past the L1 the prefetchers" sweep.out)" = 2
'

test_expect_success GNUPLOT 'memjob plot turns the sweep CSV into a PNG' '
	cd keep &&
	"$MEMJOB" plot sweep.csv &&
	png_ok sweep.png &&
	# nothing else was left beside it (no temporary files)
	test "$(ls -A | sort | tr "\n" " ")" = "sweep.csv sweep.out sweep.png "
'

test_expect_success GNUPLOT 'memjob plot never replaces a PNG without --force' '
	mkdir force && cd force &&
	cp ../keep/sweep.csv . &&
	printf "not a png" >sweep.png &&
	expect_exit 2 "$MEMJOB" plot sweep.csv 2>err &&
	grep "sweep.png.* exists; --force replaces it" err &&
	test "$(cat sweep.png)" = "not a png" &&
	"$MEMJOB" plot --force sweep.csv &&
	png_ok sweep.png
'

test_expect_success GNUPLOT 'memjob plot reads standard input given --output' '
	mkdir stdin && cd stdin &&
	"$MEMJOB" plot --output=in.png - <../keep/sweep.csv &&
	png_ok in.png &&
	"$MEMJOB" plot --x=size --y=ns_per_item --output=in2.png \
		<../keep/sweep.csv &&
	png_ok in2.png &&
	expect_exit 2 "$MEMJOB" plot - <../keep/sweep.csv 2>err &&
	grep "output=FILE.png" err
'

test_expect_success '--script writes the data and the sysfs cache sizes' '
	mkdir script && cd script &&
	MEMJOB_TOPOLOGY_FILE="$SRCDIR/t/fixtures/topo/seed000.xml" "$MEMJOB" plot \
		--script=s.gp "$SRCDIR/t/fixtures/cache-sweep/vm-2cpu.csv" &&
	test "$(grep -c "^\$d[0-9]* << EOD\$" s.gp)" = 4 &&
	# the seed000 laptop: L1d 48 KiB, L2 512 KiB, L3 6 MiB
	grep "^set arrow from 49152, graph 0 to 49152, graph 1 nohead" s.gp &&
	grep "L1d 48 KiB" s.gp && grep "L2 512 KiB" s.gp &&
	grep "L3 6 MiB" s.gp &&
	grep "^set logscale x 2" s.gp &&
	grep "^set output .s\.png.$" s.gp &&
	grep "title .chase chase_layout=page hugepage=thp.$" s.gp &&
	# 4 KiB, median of the three repeats (8.251, 7.748, 7.744)
	grep -x "4096 7.7480000000000002" s.gp &&
	test_path_is_missing s.png
'

test_expect_success GNUPLOT 'the script from --script draws with gnuplot' '
	mkdir gp && cd gp &&
	"$MEMJOB" plot --script=s.gp \
		"$SRCDIR/t/fixtures/cache-sweep/vm-2cpu.csv" &&
	gnuplot s.gp &&
	png_ok s.png
'

test_expect_success 'memjob plot: unusable input exits 2 and writes nothing' '
	mkdir bad && cd bad &&
	cp ../keep/sweep.csv . &&
	expect_exit 2 "$MEMJOB" plot --y=latency sweep.csv 2>err &&
	grep "no column .latency. in sweep.csv" err &&
	expect_exit 2 "$MEMJOB" plot --x=sise sweep.csv 2>err &&
	grep "did you mean .size.?" err &&
	: >empty.csv &&
	expect_exit 2 "$MEMJOB" plot empty.csv 2>err &&
	grep "empty.csv is empty" err &&
	head -n 1 sweep.csv >head.csv &&
	expect_exit 2 "$MEMJOB" plot head.csv 2>err &&
	grep "head.csv has a header but no rows" err &&
	expect_exit 2 "$MEMJOB" plot missing.csv 2>err &&
	grep "cannot open missing.csv" err &&
	expect_exit 2 "$MEMJOB" plot --bogus sweep.csv &&
	expect_exit 2 "$MEMJOB" plot a.csv b.csv &&
	test_path_is_missing sweep.png && test_path_is_missing empty.png &&
	test_path_is_missing head.png &&
	test "$(ls -A | sort | tr "\n" " ")" = "empty.csv err head.csv sweep.csv "
'

test_expect_success 'memjob plot without gnuplot says how to get it' '
	mkdir nognuplot && cd nognuplot &&
	cp ../keep/sweep.csv . &&
	expect_exit 1 env PATH=/nonexistent "$MEMJOB" plot sweep.csv 2>err &&
	grep -x "memjob plot: gnuplot is not installed (apt-get install gnuplot-nox)" err &&
	test_path_is_missing sweep.png
'

test_done
