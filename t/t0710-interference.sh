#!/bin/bash
# t0710-interference.sh - role=victim|aggressor: the victim runs alone
# (its baseline), then with its aggressors (loaded); the CSV says role and
# phase, the metric each job is judged by, the baseline (median of the
# alone runs) and the slowdown; aggressors run exactly as long as the
# victims, whatever their loops; sweeps on the aggressor share one
# baseline, sweeps on the victim get one each; rate= dials an aggressor.
# And the physics: a writer hammering memory on the other CPU must slow a
# pointer chase that lives in the shared cache.
#
# Victims run 100-200 ms per repeat; the script takes about 10 s.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh
. t/broken/helpers.sh

test_lazy_prereq TWO_CPUS '
	[ "$(nproc)" -ge 2 ] && taskset -c 0,1 true
'

# median: the median of the numbers on stdin (the mean of the middle two
# for an even count), as memjob computes a baseline.
median()
{
	sort -g | awk '{ v[NR] = $1 }
	END {
		if (!NR) { print "median: no numbers" > "/dev/stderr"; exit 1 }
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.9g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
	}'
}

# check_baselines FILE VICTIM KEYCOL: every loaded row of VICTIM has as
# baseline the median of the metric of VICTIM's alone rows that have the
# same KEYCOL (the victim's swept option), or of all its alone rows when
# KEYCOL is -.
check_baselines()
{
	local f=$1 v=$2 key=$3 k base want n=0

	[ "$key" = - ] && key=job
	csv_get "$f" "$key" job="$v" phase=loaded >keys.$$ &&
	csv_get "$f" baseline job="$v" phase=loaded >bases.$$ || return 1
	while read -r k base <&3; do
		want=$(csv_get "$f" metric job="$v" phase=alone "$key=$k" |
		       median) || return 1
		echo "$key=$k: baseline $base, median of the alone runs $want"
		near "$base" "$want" "$(awk -v w="$want" 'BEGIN { print w * 1e-5 }')" ||
			return 1
		n=$((n + 1))
	done 3< <(paste -d" " keys.$$ bases.$$)
	rm -f keys.$$ bases.$$
	[ "$n" -gt 0 ] || { echo "no loaded rows of $v"; return 1; }
}

# check_slowdowns FILE VICTIM: each loaded row's slowdown_pct agrees with
# its metric and baseline: (m - b) / b for ns_per_item and elapsed_s,
# b / m - 1 for gbps, in %.
check_slowdowns()
{
	local f=$1 v=$2 n r m b s name want
	n=$(csv_rows "$f")
	for r in $(seq "$n"); do
		[ "$(csv_col "$f" job "$r")" = "$v" ] || continue
		[ "$(csv_col "$f" phase "$r")" = loaded ] || continue
		m=$(csv_col "$f" metric "$r")
		b=$(csv_col "$f" baseline "$r")
		s=$(csv_col "$f" slowdown_pct "$r")
		name=$(csv_col "$f" metric_name "$r")
		case $name in
		gbps)	want=$(awk -v m="$m" -v b="$b" 'BEGIN { print (b / m - 1) * 100 }') ;;
		*)	want=$(awk -v m="$m" -v b="$b" 'BEGIN { print (m - b) / b * 100 }') ;;
		esac
		echo "row $r: $name $m, baseline $b: slowdown $s%, expected $want%"
		near "$s" "$want" "$(awk -v w="$want" 'BEGIN {
			if (w < 0) w = -w; print 0.02 + w * 1e-4 }')" || return 1
	done
}

# check_lockstep FILE [MS]: in each loaded run (a group and repeat), every
# aggressor started before the victims ended and stopped after the last of
# them was done (it notices only then), and both edges lie within MS
# milliseconds of the victims' window.  MS defaults to 50, which a quiet
# host keeps with room to spare (here 0-3 ms); under other load a thread
# can wait several scheduler slices or a hypervisor steal, so the tests
# that are not about timing pass 1000: still far short of the ages an
# aggressor that never stopped (a million loops) would take.
check_lockstep()
{
	awk -F'\t' -v tol="${2:-50}" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["phase"] == "loaded" {
		k = $c["group"] "/" $c["repeat"]
		s = $c["start_ns"]; e = $c["end_ns"]
		if ($c["role"] == "victim") {
			if (!(k in vs) || s < vs[k]) vs[k] = s
			if (!(k in ve) || e > ve[k]) ve[k] = e
		} else {
			as[k, ++na[k]] = s; ae[k, na[k]] = e
		}
		if (!(k in keys)) nkeys++
		keys[k] = 1
	}
	END {
		for (k in keys) {
			if (!na[k]) { printf "run %s has no aggressor\n", k; bad = 1 }
			for (i = 1; i <= na[k]; i++) {
				ds = as[k, i] - vs[k]; de = ae[k, i] - ve[k]
				printf "run %s: aggressor starts %+.1f ms, ends %+.1f ms from the victims (limit %d ms)\n", k, ds / 1e6, de / 1e6, tol
				if (as[k, i] >= ve[k] || de < 0 ||
				    ds < -tol * 1e6 || ds > tol * 1e6 || de > tol * 1e6)
					bad = 1
			}
		}
		if (!nkeys) { print "no loaded rows"; bad = 1 }
		exit bad
	}' <(to_tsv "$1")
}

# to_tsv FILE: the CSV with tabs between fields (the columns used here
# hold no tab), quotes removed.
to_tsv()
{
	awk '{
		out = ""; inq = 0
		for (i = 1; i <= length($0); i++) {
			ch = substr($0, i, 1)
			if (ch == "\"") inq = !inq
			else if (ch == "," && !inq) out = out "\t"
			else out = out ch
		}
		print out
	}' "$1"
}

# The experiment of the issue: a chase in the shared cache on CPU 0, a
# writer of 64 MiB (far past the caches) on CPU 1 with no runtime and a
# million loops, 3 repeats.  chase_layout=page keeps TLB misses, which
# vary a lot on virtual machines, out of the figure; 2*l2 puts the working
# set in the last-level cache, which the writer sweeps.
write_file "$TEST_TMP/i.ini" <<\EOF
[global]
repeat=3
[victim]
role=victim
cpus_allowed=0
ioengine=mem
size=2*l2
kernel=chase
chase_layout=page
runtime=200ms
time_based=1
[aggressor]
role=aggressor
cpus_allowed=1
ioengine=mem
rw=write
kernel=fill
size=64m
loops=1000000
EOF

test_expect_success TWO_CPUS 'setup: a chase victim against a fill aggressor' '
	"$MEMJOB" --verbose --output-format=normal,csv i.ini >i.out 2>i.err &&
	sed -n "/^host,/,\$p" i.out >i.csv &&
	cat i.csv &&
	test "$(csv_rows i.csv)" = 9
'

test_expect_success TWO_CPUS 'alone rows for the victim, then loaded rows for both' '
	csv_get i.csv job >jobs &&
	csv_get i.csv phase >phases &&
	paste -d: jobs phases >actual &&
	cat >expect <<-\EOF &&
	victim:alone
	victim:alone
	victim:alone
	victim:loaded
	victim:loaded
	victim:loaded
	aggressor:loaded
	aggressor:loaded
	aggressor:loaded
	EOF
	test_cmp expect actual &&
	test "$(lines i.csv role job=victim)" = "victim victim victim victim victim victim" &&
	test "$(lines i.csv role job=aggressor)" = "aggressor aggressor aggressor" &&
	test "$(lines i.csv status | tr " " "\n" | sort -u)" = ok &&
	test "$(lines i.csv repeat job=victim phase=alone)" = "1 2 3"
'

test_expect_success TWO_CPUS 'the victim is judged by ns_per_item, the aggressor by gbps' '
	test "$(csv_get i.csv metric_name job=victim | sort -u)" = ns_per_item &&
	test "$(csv_get i.csv metric_name job=aggressor | sort -u)" = gbps &&
	for r in 1 4; do
		near "$(csv_col i.csv metric $r)" \
			"$(csv_col i.csv ns_per_item $r)" 0.01 || exit 1
	done &&
	near "$(csv_col i.csv metric 7)" "$(csv_col i.csv gbps 7)" 0.0001 &&
	# only loaded victims have a baseline and a slowdown
	test "$(lines i.csv baseline phase=alone)" = "" &&
	test "$(lines i.csv slowdown_pct job=aggressor)" = ""
'

test_expect_success TWO_CPUS 'the baseline is the median of the alone runs' '
	check_baselines i.csv victim - &&
	test "$(csv_get i.csv baseline job=victim phase=loaded | sort -u | wc -l)" = 1
'

test_expect_success TWO_CPUS 'slowdown_pct is (metric - baseline) / baseline' '
	check_slowdowns i.csv victim
'

test_expect_success TWO_CPUS,TIMING 'the aggressor runs exactly while the victim runs' '
	check_lockstep i.csv &&
	# a million loops of 64 MiB were not done, but the first one was
	for b in $(lines i.csv bytes job=aggressor); do
		test "$b" -ge 67108864 &&
		test "$b" -lt $((1000 * 67108864)) || exit 1
	done
'

# The cache effect of a writer on the other CPU is small on some VMs
# (here +2..6% for a 2 MiB chase when the host is quiet): what must hold
# everywhere is that an aggressor sharing the victim's CPU takes about
# half its time, which proves they run together and that the slowdown
# arithmetic sees it.  Other load on a busy host shrinks the ratio (it
# shares the CPU in the alone phase too).  Three runs, judged together
# once: on a quiet host a correct program misses the 1.5x in far less
# than 1% of runs, so all three miss with P = 1e-6 (two or more: 3e-4,
# above the 1 in 10,000 of t/lib.sh's STAT_ALPHA): the test fails when
# none shows it; an aggressor that did not run shows ~1.0x every time.
# A host that disturbed more than one in 10 of the alone runs by 5% or
# more (noisy_runs) decides instead: skipped, with its figures.
same_cpu_slowdown()
{
	"$MEMJOB" --output-format=csv --repeat=3 \
		--name=victim --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=200ms --time_based \
		--name=aggressor --role=aggressor --cpus_allowed=0 --size=16m \
		--rw=write --kernel=fill >same.csv &&
	alone=$(csv_get same.csv metric job=victim phase=alone | median) &&
	loaded=$(csv_get same.csv metric job=victim phase=loaded | median) &&
	slow=$(csv_get same.csv slowdown_pct job=victim phase=loaded | median) &&
	echo "victim ns per access: alone $alone, loaded $loaded (medians), slowdown $slow%" &&
	noisy_runs same.csv job=victim phase=alone >>noise &&
	awk -v a="$alone" -v l="$loaded" -v s="$slow" \
		"BEGIN { exit !(l >= 1.5 * a && s >= 50) }"
}

test_expect_success TIMING 'physics: an aggressor on the victim CPU slows it 1.5x or more' '
	found=0 && : >noise &&
	for i in 1 2 3; do
		if same_cpu_slowdown; then found=$((found + 1)); fi
	done &&
	echo "1.5x or more in $found of 3 runs" &&
	skip_if_noisy noise &&
	test $((3 - found)) -lt "$(binom_limit 3 0.01)"
'

test_expect_success TWO_CPUS 'the normal report gives the interference table' '
	cat i.out &&
	grep "^interference: victim .victim., ns per access" i.out &&
	base=$(csv_col i.csv baseline 4) &&
	# the table rounds the median to two places: within half a unit of
	# the CSV figure, whichever way a tie at the third place falls
	# (bash printf rounds 9.725 up, memjob its double 9.72499.. down)
	alone=$(sed -n "/^interference:/,\$p" i.out |
		awk "\$1 == \"point\" { getline; print \$2; exit }") &&
	echo "table alone $alone, CSV baseline $base" &&
	awk -v a="$alone" -v b="$base" "BEGIN { d = a - b; exit !(d < 0.0051 && d > -0.0051) }" &&
	grep "^victim \[victim alone\]" i.out &&
	grep "^aggressor \[aggressor loaded\]" i.out
'

test_expect_success TWO_CPUS 'the chase speaks of accesses, in good English' '
	grep "ns per access ([0-9]* accesses)" i.out &&
	! grep accesss i.out
'

# ---- victim and aggressor in their segment ---------------------------------------

test_expect_success 'a victim without an aggressor is refused' '
	in_fresh_dir lonevictim &&
	refuses --name=v --role=victim --size=64k --name=n --size=64k &&
	error_at "command line:2" role "${SQ}v${SQ}" "no aggressor" &&
	errors_are 1
'

test_expect_success 'an aggressor without a victim is refused' '
	in_fresh_dir loneaggr &&
	refuses --name=a --role=aggressor --size=64k &&
	error_at "command line:2" role "${SQ}a${SQ}" "no victim" &&
	errors_are 1
'

test_expect_success 'a stonewall between victim and aggressor is refused' '
	write_file sw.ini <<-\EOF &&
	[v]
	role=victim
	size=64k
	[a]
	stonewall
	role=aggressor
	size=64k
	EOF
	in_fresh_dir stonewalled &&
	refuses "$TEST_TMP/sw.ini" &&
	error_at "$TEST_TMP/sw.ini:2" role "${SQ}v${SQ}" "no aggressor" &&
	errors_are 1
'

test_expect_success 'jobs without a role: no phase, no baseline' '
	"$MEMJOB" --output-format=csv --name=v --role=victim --size=64k \
		--kernel=count --name=a --role=aggressor --size=64k \
		--name=p --stonewall --size=64k --kernel=count >out.csv &&
	test "$(lines out.csv phase job=p)" = "" &&
	test "$(lines out.csv role job=p)" = "" &&
	test "$(lines out.csv baseline job=p)" = "" &&
	test "$(lines out.csv metric_name job=p)" = gbps &&
	test "$(lines out.csv phase job=v)" = "alone loaded"
'

# ---- how long aggressors run ------------------------------------------------------

test_expect_success TWO_CPUS 'an aggressor with one tiny pass runs until the last victim is done' '
	"$MEMJOB" --output-format=csv \
		--name=v1 --role=victim --cpus_allowed=0 --size=64k \
		--kernel=count --runtime=100ms --time_based \
		--name=v2 --role=victim --cpus_allowed=0 --size=64k \
		--kernel=count --runtime=300ms --time_based \
		--name=a --role=aggressor --cpus_allowed=1 --size=64k \
		--kernel=count --loops=1 >out.csv &&
	e2=$(lines out.csv end_ns job=v2 phase=loaded) &&
	e1=$(lines out.csv end_ns job=v1 phase=loaded) &&
	ea=$(lines out.csv end_ns job=a) &&
	echo "ends: v1 $e1, v2 $e2, a $ea" &&
	# it stops after the last victim (its one pass of 64 KiB was done
	# in microseconds), and within a second, which load cannot stretch
	test "$e2" -gt "$e1" &&
	test "$ea" -ge "$e2" && test "$((ea - e2))" -lt 1000000000 &&
	test "$(lines out.csv bytes job=a)" -gt $((100 * 65536))
'

test_expect_success TWO_CPUS 'a rate-limited aggressor stops when the victim is done too' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=200ms --time_based \
		--name=a --role=aggressor --cpus_allowed=1 --size=64m --rw=write \
		--kernel=fill --loops=1000000 --rate=1m >out.csv &&
	ev=$(lines out.csv end_ns job=v phase=loaded) &&
	ea=$(lines out.csv end_ns job=a) &&
	echo "victim ends at $ev ns, aggressor at $ea ns" &&
	# 200 ms of a 64 MiB write at 1 MiB/s is 0.2% of it
	test "$ea" -ge "$ev" && test "$((ea - ev))" -lt 1000000000
'

# ---- sweeps ------------------------------------------------------------------------

test_expect_success TWO_CPUS 'a sweep on the aggressor only: one baseline for all points' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=100ms --time_based --repeat=2 \
		--name=a --role=aggressor --cpus_allowed=1 --size=16m \
		--rw=write --kernel=fill --loops=1000000 --repeat=2 \
		--sweep=bs:16k,64k >out.csv &&
	cat out.csv &&
	test "$(csv_get out.csv job phase=alone | wc -l)" = 2 &&
	test "$(lines out.csv point job=v phase=loaded)" = "bs=16k bs=16k bs=64k bs=64k" &&
	test "$(lines out.csv point job=a)" = "bs=16k bs=16k bs=64k bs=64k" &&
	test "$(lines out.csv bs job=a)" = "16384 16384 65536 65536" &&
	check_baselines out.csv v - &&
	check_slowdowns out.csv v &&
	check_lockstep out.csv 1000
'

test_expect_success TWO_CPUS 'a sweep on the victim: one baseline per victim point' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=100ms --time_based --repeat=2 \
		--sweep=size:256k,1m \
		--name=a --role=aggressor --cpus_allowed=1 --size=16m \
		--rw=write --kernel=fill --loops=1000000 --repeat=2 >out.csv &&
	cat out.csv &&
	test "$(lines out.csv sweep_size job=v phase=alone)" = "256k 256k 1m 1m" &&
	test "$(lines out.csv size job=v phase=alone)" = "262144 262144 1048576 1048576" &&
	test "$(lines out.csv sweep_size job=v phase=loaded)" = "256k 256k 1m 1m" &&
	check_baselines out.csv v sweep_size &&
	check_slowdowns out.csv v &&
	b1=$(csv_get out.csv baseline job=v phase=loaded sweep_size=256k | sort -u) &&
	b2=$(csv_get out.csv baseline job=v phase=loaded sweep_size=1m | sort -u) &&
	test "$(echo "$b1" | wc -l)" = 1 && test "$(echo "$b2" | wc -l)" = 1 &&
	test "$b1" != "$b2"
'

test_expect_success TWO_CPUS 'victim x aggressor grid: baselines per victim point only' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=100ms --time_based \
		--sweep=size:256k,512k \
		--name=a --role=aggressor --cpus_allowed=1 --size=16m \
		--rw=write --kernel=fill --loops=1000000 \
		--sweep=bs:16k,64k >out.csv &&
	cat out.csv &&
	test "$(lines out.csv sweep_size job=v phase=alone)" = "256k 512k" &&
	test "$(csv_get out.csv point job=v phase=loaded | wc -l)" = 4 &&
	test "$(csv_get out.csv point job=v phase=loaded | sort -u | wc -l)" = 4 &&
	test "$(csv_get out.csv job phase=loaded | wc -l)" = 8 &&
	check_baselines out.csv v sweep_size &&
	check_lockstep out.csv 1000
'

# ---- throughput victims -------------------------------------------------------------

test_expect_success TWO_CPUS 'a throughput victim: gbps, slowdown = baseline / metric - 1' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=8m \
		--kernel=count --runtime=100ms --time_based --repeat=3 \
		--name=a --role=aggressor --cpus_allowed=1 --size=64m \
		--rw=write --kernel=fill --loops=1000000 --repeat=3 >out.csv &&
	test "$(csv_get out.csv metric_name job=v | sort -u)" = gbps &&
	for r in 1 4; do
		near "$(csv_col out.csv metric $r)" \
			"$(csv_col out.csv gbps $r)" 0.0001 || exit 1
	done &&
	check_baselines out.csv v - &&
	check_slowdowns out.csv v
'

# ---- rate --------------------------------------------------------------------------------

# rate_ok FILE ROW RATE: the row moved RATE bytes per second, within 5%.
rate_ok()
{
	local g
	g=$(csv_col "$1" gbps "$2") || return 1
	awk -v g="$g" -v r="$3" 'BEGIN {
		e = g * 1e9 / r - 1
		printf "%.6f GB/s against %d B/s: off by %+.2f%%\n", g, r, e * 100
		exit !(e < 0.05 && e > -0.05)
	}'
}

test_expect_success TIMING 'rate=200m limits a job to 200 MiB/s' '
	"$MEMJOB" --output-format=csv --name=r --size=16m --rw=write \
		--kernel=fill --rate=200m --runtime=500ms --time_based >out.csv &&
	rate_ok out.csv 1 209715200
'

test_expect_success TWO_CPUS,TIMING 'rate=200m limits an aggressor to 200 MiB/s' '
	"$MEMJOB" --output-format=csv \
		--name=v --role=victim --cpus_allowed=0 --size=1m \
		--kernel=chase --runtime=500ms --time_based \
		--name=a --role=aggressor --cpus_allowed=1 --size=64m \
		--rw=write --kernel=fill --loops=1000000 --rate=200m >out.csv &&
	test "$(csv_col out.csv job 3)" = a &&
	rate_ok out.csv 3 209715200 &&
	check_lockstep out.csv 1000
'

test_expect_success TIMING 'a sweep over rate scales the measured rate' '
	"$MEMJOB" --output-format=csv --name=r --size=16m --kernel=count \
		--runtime=300ms --time_based --sweep=rate:100m,200m >out.csv &&
	test "$(lines out.csv sweep_rate)" = "100m 200m" &&
	rate_ok out.csv 1 104857600 &&
	rate_ok out.csv 2 209715200
'

test_done
