#!/bin/bash
# t0980-seeds.sh - doc/SEEDS.md is made by doc/seeds/seeds.sh (make seeds):
# the script run in its tiny mode (every seed's job at sizes of seconds)
# writes a page whose structure holds (every seed's rows, every "same
# conclusion" yes or no, every no with its reason) and whose figures and
# verdicts are those of the runs' JSON, recomputed here without the
# script's code.  The committed page is checked for the same structure.
# It asserts where the figures came from, never which conclusion came out.
#
# The tiny run takes about 10 s on an idle 2-vCPU guest (the jobs'
# quirk probes and jq), more when the machine is busy.
# test: alone, it runs every seed's job, whose device reads are system-wide

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

SEEDS=$SRCDIR/doc/seeds/seeds.sh
export SEEDS

test_lazy_prereq SQLITE_BATCH '[ -x "$SRCDIR/memjob-sqlite-batch" ]'

# rows PAGE SEED: the table rows of one seed's section, cells split on
# the unescaped pipes and joined with tabs (header and rule left out).
rows()
{
	awk -v seed="$2" '
		/^## Seed / { in_seed = ($3 == seed ":") ; next }
		/^## / { in_seed = 0 }
		in_seed && /^\| / && !/^\| experiment \|/ && !/^\|---/ {
			line = $0
			gsub(/\\\|/, "\001", line)
			n = split(line, c, "|")
			out = ""
			for (i = 2; i < n; i++) {
				sub(/^ /, "", c[i]); sub(/ $/, "", c[i])
				gsub("\001", "|", c[i])
				out = out (i > 2 ? "\t" : "") c[i]
			}
			print out
		}' "$1"
}
export -f rows

# check_structure PAGE: every seed file has its section with one row per
# claim, seven cells each; "same conclusion" is yes or no; a no has a
# reason, a yes none.
check_structure()
{
	local page=$1 f seed want got
	for f in "$SRCDIR"/doc/seeds/[0-9][0-9][0-9]-*.json; do
		seed=$(jq -r .seed "$f")
		grep -q "^## Seed $seed: " "$page" ||
			{ echo "$page: no section for seed $seed"; return 1; }
		want=$(jq '.claims | length' "$f")
		got=$(rows "$page" "$seed" | wc -l)
		[ "$want" = "$got" ] ||
			{ echo "$page: seed $seed has $got rows, its file $want claims"; return 1; }
		rows "$page" "$seed" | awk -F'\t' -v seed="$seed" '
			NF != 7 { print "seed " seed ": " NF " cells: " $0; bad = 1 }
			$6 != "yes" && $6 != "no" { print "seed " seed ": same conclusion \"" $6 "\""; bad = 1 }
			$6 == "no" && $7 == "" { print "seed " seed ": a no without a reason: " $1; bad = 1 }
			$6 == "yes" && $7 != "" { print "seed " seed ": a yes with a reason: " $1; bad = 1 }
			$4 == "" { print "seed " seed ": no figure: " $1; bad = 1 }
			END { exit bad }' || return 1
	done
}
export -f check_structure

# median of the numbers on stdin, one a line.
median()
{
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
export -f median

# figure_in PAGE SEED EXPERIMENT LABEL: the median the page prints for
# LABEL in EXPERIMENT's row ("LABEL: 1.23 GB/s (...)"), without a "+".
figure_in()
{
	rows "$1" "$2" | awk -F'\t' -v e="$3" -v l="$4: " '
		$1 == e { n = split($4, f, "; ")
			  for (i = 1; i <= n; i++)
				if (index(f[i], l) == 1) {
					v = substr(f[i], length(l) + 1)
					sub(/^\+/, "", v); sub(/[ %].*/, "", v)
					print v; exit
				} }'
}
export -f figure_in

# close A B: A (the page's, three significant digits) is B rounded.
close()
{
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = b < 0 ? -b : b
		exit !(a != "" && d <= m * 0.006 + 0.0006) }'
}
export -f close

test_expect_success SQLITE_BATCH 'the tiny run writes the page and keeps its runs' '
	date -u +%Y-%m-%d >"$TEST_TMP/day" &&
	"$SEEDS" --tiny --work "$TEST_TMP/work" -o "$TEST_TMP/SEEDS.md" 2>err &&
	grep "wrote $TEST_TMP/SEEDS.md" err &&
	test -s "$TEST_TMP/SEEDS.md" &&
	ls "$TEST_TMP"/work/runs/003-count10.1.json
'

test_expect_success SQLITE_BATCH 'every seed has its rows; every verdict is yes, or no with a reason' '
	check_structure "$TEST_TMP/SEEDS.md"
'

test_expect_success SQLITE_BATCH 'the header names the machine, kernel, version, date, command, time and load' '
	p=$TEST_TMP/SEEDS.md j=$TEST_TMP/work/runs/003-count10.1.json &&
	grep "^- machine: $(jq -r .cpu_model "$j"), $(nproc) CPUs" "$p" &&
	grep "^- kernel: Linux $(uname -r)\$" "$p" &&
	grep "^- memjob: $(jq -r .memjob_version "$j")\$" "$p" &&
	grep "^- date: $(cat "$TEST_TMP/day") [0-9][0-9]:[0-9][0-9] UTC\$" "$p" &&
	grep "^- command: \`doc/seeds/seeds.sh --tiny --work $TEST_TMP/work -o $TEST_TMP/SEEDS.md\`, run time [0-9]* s\$" "$p" &&
	grep "^- load average (1, 5, 15 min) on $(nproc) CPUs: [0-9.]* [0-9.]* [0-9.]* at the start" "$p" &&
	grep "^- load average.*; in the second before the runs began, other work kept [0-9]*\.[0-9][0-9] of $(nproc) CPUs busy\( (a quiet machine\|, so single figures spread\)" "$p" &&
	grep "^\*\*Tiny mode\*\*" "$p"
'

test_expect_success SQLITE_BATCH 'the figures are the runs'"'"' JSON, recomputed' '
	p=$TEST_TMP/SEEDS.md r=$TEST_TMP/work/runs &&
	want=$(jq ".results[] | select(.job == \"in-ram\") | .gbps" "$r"/003-count10.*.json | median) &&
	got=$(figure_in "$p" 003 "unrolled against simple loop" "in-ram (unrolled)") &&
	echo "in-ram: page $got, JSON $want" && close "$got" "$want" &&
	want=$(jq ".results[] | select(.job == \"cold\") | .gbps" "$r"/000-read-twice.*.json | median) &&
	got=$(figure_in "$p" 000 "read a 1 GiB file twice" cold) &&
	echo "cold: page $got, JSON $want" && close "$got" "$want" &&
	want=$(jq ".results[] | select(.job == \"batch-8\") | .elapsed_ns / 1e9" "$r"/001-icache-sqlite.*.json | median) &&
	got=$(figure_in "$p" 001 "SQLite statements one at a time (N=1) or in groups of 8" "batch 8") &&
	echo "batch 8: page $got, JSON $want" && close "$got" "$want" &&
	want=$(jq ".interference[] | select(.point == \"flush=clwb numjobs=1\") | .slowdown_pct" "$r"/004-llc-noisy.1.json) &&
	got=$(figure_in "$p" 004 "1 writer, each flush instruction" "clwb, 1 writer") &&
	echo "clwb: page $got, JSON $want" &&
	if [ -n "$want" ] && [ "$want" != null ]; then
		close "$got" "$want"
	else
		test "$got" = none
	fi
'

test_expect_success SQLITE_BATCH 'a verdict follows from the figures it shows' '
	p=$TEST_TMP/SEEDS.md r=$TEST_TMP/work/runs &&
	warm=$(jq ".results[] | select(.job == \"mmap-warm\") | .gbps" "$r"/003-count10.*.json | median) &&
	cold=$(jq ".results[] | select(.job == \"mmap-cold\") | .gbps" "$r"/003-count10.*.json | median) &&
	want=$(awk -v w="$warm" -v c="$cold" "BEGIN { print (w > c) ? \"yes\" : \"no\" }") &&
	got=$(rows "$p" 003 | awk -F"\t" "\$1 == \"mmap, cold against warm\" { print \$6 }") &&
	echo "mmap warm $warm, cold $cold: page $got, want $want" &&
	test "$got" = "$want" &&
	buf=$(jq ".results[] | select(.job == \"buffered\") | .gbps" "$r"/000-write.*.json | median) &&
	dir=$(jq ".results[] | select(.job == \"direct\") | .gbps" "$r"/000-write.*.json | median) &&
	want=$(awk -v b="$buf" -v d="$dir" "BEGIN { print (b > d) ? \"yes\" : \"no\" }") &&
	got=$(rows "$p" 000 | awk -F"\t" "\$1 ~ /^write 1 GiB/ { print \$6 }") &&
	echo "buffered $buf, direct $dir: page $got, want $want" &&
	test "$got" = "$want"
'

test_expect_success SQLITE_BATCH 'a point the machine cannot run is a no, with the run'"'"'s note' '
	p=$TEST_TMP/SEEDS.md &&
	n=$(jq "[.results[] | select(.point == \"flush=clflush numjobs=8\")] | length" "$TEST_TMP"/work/runs/004-llc-noisy.1.json) &&
	if [ "$n" = 0 ]; then
		row=$(rows "$p" 004 | grep "^8 writers: clflush against clflushopt") &&
		printf "%s\n" "$row" | awk -F"\t" "\$6 == \"no\" && \$4 ~ /clflush, 8 writers: none here/ && \$7 ~ /numjobs=8 left out/ { ok = 1 } END { exit !ok }"
	else
		echo "this machine runs 8 writers: nothing to check"
	fi
'

test_expect_success 'the committed page has the same structure, and names a machine, not tiny mode' '
	p=$SRCDIR/doc/SEEDS.md &&
	check_structure "$p" &&
	grep "^- machine: " "$p" && grep "^- kernel: Linux " "$p" &&
	grep "^- command: \`make seeds\`, run time [0-9]* s\$" "$p" &&
	grep "^- load average" "$p" &&
	! grep "Tiny mode" "$p"
'

test_expect_success 'bad arguments: exit 2 and a message' '
	expect_exit 2 "$SEEDS" --bogus 2>err &&
	grep "unknown argument .--bogus." err &&
	expect_exit 2 "$SEEDS" -o 2>err &&
	grep -- "-o needs a file" err
'

test_expect_success 'a failing job stops the script and leaves the old page alone' '
	echo "the old page" >page.md &&
	printf "#!/bin/sh\necho planted failure >&2\nexit 3\n" >fail.sh && chmod +x fail.sh &&
	expect_exit 2 env MEMJOB="$TEST_TMP/fail.sh" "$SEEDS" --tiny -o page.md 2>err &&
	grep "planted failure" err && grep "failed" err &&
	test "$(cat page.md)" = "the old page" &&
	ls page.md* >files && test "$(cat files)" = page.md
'

test_done
