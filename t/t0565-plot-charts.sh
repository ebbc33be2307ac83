#!/bin/bash
# t0565-plot-charts.sh - memjob plot draws each experiment in the chart
# that fits it, read from the gnuplot script it writes (--script), not
# from pixels: an interference run's slowdown as bars with 95% interval
# whiskers, grouped by the last swept option and coloured by the others;
# count10's steps as bars of GB/s with their ranges; a sample_log as GB/s
# over time with Dirty and Writeback on a second axis; a sweep over sizes
# as lines on a log axis; a sweep over words as bars.  JSON input draws as
# its CSV does; PNG or SVG, to a file or to standard output; pipelines
# from a run into memjob report - and memjob plot - work; memjob --plot
# runs and draws in one command.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq GNUPLOT 'command -v gnuplot'
test_lazy_prereq TWO_CPUS 'test "$(nproc)" -ge 2'

# kind SCRIPT: the chart a script says it draws ("slowdown", "bars"...).
kind()
{
	sed -n "1s/^# memjob plot: a \(.*\) chart of .*/\1/p" "$1"
}

# block SCRIPT NAME: the lines of data block $NAME.
block()
{
	sed -n "/^\\\$$2 << EOD\$/,/^EOD\$/p" "$1" | sed "1d;\$d"
}

png_ok()
{
	test "$(head -c 8 "$1" | od -An -c | tr -d " ")" = "211PNG\\r\\n032\\n"
}

test_expect_success TWO_CPUS 'setup: llc-noisy shrunk, with intervals (CSV and JSON)' '
	PMEM=$TEST_TMP REPEAT=4 PRECISION=off VICTIM_TIME=30ms WRITE_SIZE=4m \
		"$MEMJOB" --output-format=csv,json "$SRCDIR/jobs/llc-noisy.ini" \
		>llc.both 2>llc.err &&
	sed -n "/^host,/,/^\$/p" llc.both | sed "/^\$/d" >llc.csv &&
	sed -n "/^{\$/,\$p" llc.both >llc.json &&
	test "$(csv_col llc.csv status 1)" = ok
'

test_expect_success TWO_CPUS 'an interference run: slowdown bars, 95% CI whiskers, by writer count and flush' '
	"$MEMJOB" plot --script=llc.gp --output=llc.png llc.csv &&
	test "$(kind llc.gp)" = slowdown &&
	grep "^set ylabel .victim slowdown, % of its time alone (whiskers: 95% CI).$" llc.gp &&
	grep "^set xlabel .numjobs (the last swept option).$" llc.gp &&
	grep "^set xtics (.numjobs=1. 0)" llc.gp &&
	grep -c "with boxes" llc.gp >boxes && test "$(cat boxes)" = 3 &&
	test "$(grep -c "with yerrorbars" llc.gp)" = 3 &&
	for f in clflush clflushopt clwb; do
		grep "with boxes .* title .flush=$f.," llc.gp || exit 1
	done &&
	grep "^set title .memjob [^ ]* on $(hostname) " llc.gp &&
	grep "EMULATED" llc.gp &&
	# each bar is the point interval memjob computed: est, lo, hi
	block llc.gp p0c0 >bar &&
	read -r x est lo hi <bar &&
	row=$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
		\$c[\"phase\"] == \"loaded\" && \$c[\"role\"] == \"victim\" &&
		\$c[\"point\"] == \"flush=clflush numjobs=1\" {
			print \$c[\"slowdown_est_pct\"], \$c[\"slowdown_ci_lo_pct\"],
			      \$c[\"slowdown_ci_hi_pct\"]; exit }" llc.csv) &&
	echo "bar: $est $lo $hi; CSV: $row" &&
	set -- $row &&
	near "$est" "$1" 0.001 && near "$lo" "$2" 0.001 && near "$hi" "$3" 0.001
'

test_expect_success 'writer counts along x, flush instructions in colour' '
	cat >grid.csv <<-\EOF &&
	host,job,status,role,phase,point,slowdown_pct,slowdown_est_pct,slowdown_ci_lo_pct,slowdown_ci_hi_pct,memjob_version
	h,v,ok,victim,alone,,,,,,1.0
	h,v,ok,victim,loaded,flush=clflush numjobs=1,1,1.5,0.5,2.5,1.0
	h,v,ok,victim,loaded,flush=clflush numjobs=4,4,4.5,3.5,5.5,1.0
	h,v,ok,victim,loaded,flush=clwb numjobs=1,10,10.5,9,12,1.0
	h,v,ok,victim,loaded,flush=clwb numjobs=4,40,40.5,39,42,1.0
	h,v,ok,victim,loaded,flush=clwb numjobs=4,41,40.5,39,42,1.0
	h,a,ok,aggressor,loaded,flush=clwb numjobs=4,,,,,1.0
	EOF
	"$MEMJOB" plot --script=grid.gp --output=grid.png grid.csv &&
	test "$(kind grid.gp)" = slowdown &&
	grep -x "set xtics (.numjobs=1. 0, .numjobs=4. 1)" grid.gp &&
	# clwb at numjobs=4: one bar for its two repeats, at the right of 1
	block grid.gp p0c1 >clwb &&
	test "$(wc -l <clwb)" = 2 &&
	grep -x "1.2 40.5 39 42" clwb &&
	grep -x "0.8 4.5 3.5 5.5" <(block grid.gp p0c0) &&
	grep "title .memjob 1.0 on h: v, a.$" grid.gp
'

test_expect_success 'without intervals: the median of the runs and their range, said so' '
	sed "s/,1.5,0.5,2.5,/,,,,/; s/,4.5,3.5,5.5,/,,,,/; s/,10.5,9,12,/,,,,/; s/,40.5,39,42,/,,,,/" \
		grid.csv >few.csv &&
	"$MEMJOB" plot --script=few.gp --output=few.png few.csv &&
	grep "whiskers: 95% CI, or the range of the runs where too few for one" few.gp &&
	grep -x "1.2 40.5 40 41" <(block few.gp p0c1)
'

test_expect_success TWO_CPUS,GNUPLOT 'a % in a swept value (rate=5%) is a tic label, not a gnuplot format' '
	REPEAT=1 VICTIM_TIME=20ms VICTIM_SIZE=1m AGGRESSOR_SIZE=1m \
		"$MEMJOB" --output-format=csv --output=ll.csv \
		"$SRCDIR/jobs/loaded-latency.ini" 2>ll.err &&
	"$MEMJOB" plot --chart=slowdown --script=ll.gp --output=ll.png ll.csv &&
	test "$(kind ll.gp)" = slowdown &&
	grep "^set xtics (.rate=5%%. 0, .rate=15%%. 1, " ll.gp &&
	"$MEMJOB" plot --chart=slowdown --output=ll.png ll.csv &&
	png_ok ll.png
'

# table_levels OUT: the loaded-latency table of a run's text output as
# "level x y lo hi" (the aggressors' GB/s, the victim's median, its 95%
# interval, else its range), level "idle" or the point.
table_levels()
{
	sed -n "/^  injection /,/^  (waited/p" "$1" | sed '1d;$d' |
	awk '{
		if ($1 == "idle") { lv = "idle"; x = $3; i = 4 }
		else { lv = $1; x = $2; i = ($4 == "unlimited") ? 5 : 4 }
		ci = ($(i + 1) == "-") ? $(i + 2) : $(i + 1)
		split(ci, b, /\.\./)
		print lv, x, $i, b[1], b[2] }'
}

# chart_levels GP: the loaded-latency chart's points in the same form.
chart_levels()
{
	block "$1" ll0 | sed 's/ (unlimited)//' |
	awk '{ gsub(/"/, "", $5); print $5, $1, $2, $3, $4 }'
}

# near_fig TABLE CHART: within the table's rounding (2 decimals: 0.005)
# and what the CSV's own digits (6 significant at most) can add to it
near_fig()
{
	near "$1" "$2" "$(awk -v v="$2" "BEGIN {
		print 0.0051 + (v < 0 ? -v : v) * 0.00001 }")"
}

# same_levels A B: the same levels, each figure as near_fig says
same_levels()
{
	sort "$1" >"$1.s" && sort "$2" >"$2.s" &&
	test "$(cut -d" " -f1 "$1.s")" = "$(cut -d" " -f1 "$2.s")" &&
	paste -d" " "$1.s" "$2.s" | while read -r l x y lo hi l2 x2 y2 lo2 hi2; do
		echo "$l: table $x $y $lo..$hi, chart $x2 $y2 $lo2..$hi2" &&
		near_fig "$x" "$x2" && near_fig "$y" "$y2" &&
		near_fig "$lo" "$lo2" && near_fig "$hi" "$hi2" || return 1
	done
}

# A loaded-latency run small enough for seconds: the victim and its
# aggressor share CPU 0 (so it runs on any host; the figures mean nothing
# but that they are the table's), REPEAT rounds of three levels; one run
# prints the table, the CSV and the JSON (split into llN.out, .csv, .json).
test_expect_success 'setup: a tiny loaded-latency run, 6 and 2 rounds' '
	write_file tiny-ll.ini <<-\EOF &&
	[global]
	repeat=${REPEAT}

	[victim]
	role=victim
	cpus_allowed=0
	ioengine=mem
	size=1m
	hugepage=auto
	kernel=chase
	chase_layout=random
	runtime=20ms
	time_based=1

	[aggressors]
	role=aggressor
	cpus_allowed=0
	ioengine=mem
	size=1m
	bs=64k
	kernel=rwmix
	rate_wait=spin
	sweep=rate:20%,60%,0
	EOF
	for n in 6 2; do
		REPEAT=$n "$MEMJOB" --output-format=normal,csv,json \
			tiny-ll.ini >ll$n.both 2>ll$n.err &&
		sed "/^host,/,\$d" ll$n.both >ll$n.out &&
		sed -n "/^host,/,/^\$/p" ll$n.both | sed "/^\$/d" >ll$n.csv &&
		sed -n "/^{\$/,\$p" ll$n.both >ll$n.json &&
		test "$(csv_rows ll$n.csv)" = $((7 * n)) || return 1
	done
'

test_expect_success 'a loaded-latency run: latency against bandwidth, the table'"'"'s figures' '
	for n in 6 2; do
		"$MEMJOB" plot --script=ll$n.gp --output=ll$n.png ll$n.csv &&
		test "$(kind ll$n.gp)" = "loaded latency" &&
		table_levels ll$n.out >table$n && chart_levels ll$n.gp >chart$n &&
		cat table$n chart$n &&
		test "$(wc -l <table$n)" = 4 &&
		same_levels table$n chart$n &&
		# idle first, then in order of bandwidth: the line joins them so
		block ll$n.gp ll0 >pts$n &&
		head -n 1 pts$n | grep -x "0 [0-9.e+]* [0-9.e+]* [0-9.e+]* \"idle\"" &&
		awk "NR > 1 && \$1 < x { exit 1 } { x = \$1 }" pts$n || return 1
	done &&
	grep -x "set xlabel .aggressors.. bandwidth, GB/s (all clones, measured; median of the runs)." ll6.gp &&
	grep -x "set ylabel .victim chase latency, ns per access (median, 95% interval)." ll6.gp &&
	grep -x "set ylabel .victim chase latency, ns per access (median, 95% interval, or min..max where too few runs)." ll2.gp &&
	grep "^set title .memjob [^ ]* on $(hostname) .*loaded latency of victim ..victim..." ll6.gp &&
	grep "^set title .*victim..s memory: hugepage=auto: " ll6.gp &&
	grep "^plot \$ll0 using 1:2 with lines .* title .victim.," ll6.gp &&
	grep "\$ll0 using 1:2:3:4 with yerrorbars " ll6.gp &&
	grep -x "[0-9.e+]* [0-9.e+]* [0-9.e+]* [0-9.e+]* \"rate=0 (unlimited)\"" pts6 &&
	# the JSON of the same run draws the same chart
	"$MEMJOB" plot --script=llj.gp --output=ll6.png ll6.json &&
	diff <(sed 1d ll6.gp) <(sed 1d llj.gp)
'

# The title's pieces, a line each (they are joined by ."\n".).
title_pieces() {
	grep "^set title" "$1" | awk '{ n = split($0, a, /\."\\n"\./)
		for (i = 1; i <= n; i++) print a[i] }'
}

test_expect_success 'a loaded-latency chart: a long memory line is broken at its clauses' '
	long="hugepage=auto: $(printf "clause number %02d is here; " $(seq 12))" &&
	sed "s/hugepage=auto: /$long/" ll6.csv >long.csv &&
	"$MEMJOB" plot --script=lo.gp --output=lo.png long.csv &&
	title_pieces lo.gp >pieces &&
	cat pieces &&
	test "$(wc -l <pieces)" -ge 5 &&
	awk "length > 112 { exit 1 }" pieces &&
	grep -x ".clause number 0[0-9] is here; .*is here;." pieces
'

test_expect_success 'a loaded-latency run: the slowdown bars by --chart, a bad --chart refused' '
	"$MEMJOB" plot --chart=slowdown --script=sd.gp --output=sd.png ll6.csv &&
	test "$(kind sd.gp)" = slowdown &&
	"$MEMJOB" plot --chart=auto --script=au.gp --output=au.png ll6.csv &&
	test "$(kind au.gp)" = "loaded latency" &&
	"$MEMJOB" plot --chart=bars --script=ba.gp --output=ba.png ll6.csv &&
	test "$(kind ba.gp)" = bars &&
	expect_exit 2 "$MEMJOB" plot --chart=hockey --script=x.gp ll6.csv 2>err &&
	grep -x "memjob plot: --chart: expected auto, loaded-latency, slowdown, lines, bars or series, got .hockey." err &&
	expect_exit 2 "$MEMJOB" plot --chart= --script=x.gp ll6.csv 2>err &&
	grep "a value is missing in option .--chart=." err &&
	expect_exit 2 "$MEMJOB" plot --chart=slowdown --x=size --script=x.gp ll6.csv 2>err &&
	grep "chart=slowdown draws no line chart" err &&
	expect_exit 2 "$MEMJOB" plot --chart=series --script=x.gp ll6.csv 2>err &&
	grep "has no columns t_s and job_mbps" err &&
	# a sweep of another option is no loaded-latency run
	sed "s/,rate=/,size=/" ll6.csv >sized.csv &&
	"$MEMJOB" plot --script=sz.gp --output=sz.png sized.csv &&
	test "$(kind sz.gp)" = slowdown &&
	expect_exit 2 "$MEMJOB" plot --chart=loaded-latency --script=x.gp sized.csv 2>err &&
	grep "no victim whose loaded points differ only in their aggressors. rate=" err &&
	test_path_is_missing x.gp
'

test_expect_success 'a loaded-latency CSV without what the chart needs: exit 2, never a made-up 0' '
	# the aggressors gbps emptied
	# (source_info may hold a quoted comma: csv_set splits as CSV does)
	csv_set ll6.csv gbps "" role=aggressor >nogbps.csv &&
	expect_exit 2 "$MEMJOB" plot --script=x.gp nogbps.csv 2>err &&
	cat err &&
	grep "nogbps.csv, line [0-9]*: aggressor .aggressors. at rate=20% has no gbps" err &&
	# their rows left out
	csv_set ll6.csv - "" role=aggressor >noaggr.csv &&
	expect_exit 2 "$MEMJOB" plot --script=x.gp noaggr.csv 2>err &&
	grep "no aggressor.s row (role aggressor, status ok) ran with the victim at rate=20%" err &&
	# the victim alone left out
	csv_set ll6.csv - "" phase=alone >noidle.csv &&
	expect_exit 2 "$MEMJOB" plot --script=x.gp noidle.csv 2>err &&
	grep "victim .victim. has no run alone" err &&
	# no group column
	cut -d, -f3 --complement ll6.csv >nogroup.csv &&
	expect_exit 2 "$MEMJOB" plot --chart=loaded-latency --script=x.gp nogroup.csv 2>err &&
	grep "has no column .group.: a loaded-latency chart needs" err &&
	test_path_is_missing x.gp
'

test_expect_success GNUPLOT 'a loaded-latency chart draws' '
	"$MEMJOB" plot --output=ll6.png ll6.csv &&
	png_ok ll6.png &&
	"$MEMJOB" plot --output=ll6.svg ll6.csv &&
	grep -q "rate=0 (unlimited)" ll6.svg
'

test_expect_success 'setup: count10 shrunk' '
	DIR=$TEST_TMP SIZE=8m "$MEMJOB" --output-format=csv \
		"$SRCDIR/jobs/count10.ini" >count10.csv 2>/dev/null &&
	test "$(csv_rows count10.csv)" = 8
'

test_expect_success 'count10: bars of GB/s per step, in the order run, with ranges' '
	"$MEMJOB" plot --script=c.gp --output=c.png count10.csv &&
	test "$(kind c.gp)" = bars &&
	grep "^set ylabel .GB/s (10^9 bytes per second), median of the runs (whiskers: min..max).$" c.gp &&
	grep "^set xlabel .job, in the order run.$" c.gp &&
	grep -x "set xtics (.mmap-cold. 0, .mmap-warm. 1, .mmap-unrolled. 2, .in-ram-simple. 3, .in-ram. 4, .first-touch. 5, .direct-psync. 6, .direct-uring. 7) rotate by -30" c.gp &&
	grep "^set yrange \[0:\*\]" c.gp &&
	# one run each: the bar is its GB/s
	g=$(csv_col count10.csv gbps 5) &&
	block c.gp p0c0 | sed -n 5p >inram &&
	read -r x y lo hi <inram &&
	test "$x" = 4 && near "$y" "$g" 0.001
'

test_expect_success 'a sweep over words and two kinds of figure: a panel each' '
	cat >words.csv <<-\EOF &&
	host,job,status,point,metric_name,metric,sweep_chase_layout
	h,c,ok,chase_layout=random,ns_per_item,3,random
	h,c,ok,chase_layout=random,ns_per_item,5,random
	h,c,ok,chase_layout=page,ns_per_item,1,page
	h,n,ok,chase_layout=page,gbps,9,page
	EOF
	"$MEMJOB" plot --script=w.gp --output=w.png words.csv &&
	test "$(kind w.gp)" = bars &&
	grep "^set multiplot layout 1,2" w.gp &&
	grep -x "0 4 3 5" <(block w.gp p0c0) &&
	grep "ns per item" w.gp && grep "GB/s" w.gp
'

test_expect_success 'a sweep over sizes: lines on a log axis, x the swept size' '
	cat >sizes.csv <<-\EOF &&
	host,job,status,size,point,ns_per_item,sweep_code_size,sweep_batch
	h,w,ok,0,code_size=16k batch=1,3,16k,1
	h,w,ok,0,code_size=64k batch=1,5,64k,1
	h,w,ok,0,code_size=16k batch=8,1,16k,8
	h,w,ok,0,code_size=64k batch=8,2,64k,8
	EOF
	MEMJOB_TOPOLOGY_FILE="$SRCDIR/t/fixtures/topo/seed000.xml" \
		"$MEMJOB" plot --script=s.gp --output=s.png sizes.csv &&
	test "$(kind s.gp)" = lines &&
	grep "^set logscale x 2" s.gp &&
	grep "^set xlabel .code_size. . . (bytes, log scale).$" s.gp &&
	grep "title .w batch=1., " s.gp && grep "title .w batch=8.$" s.gp
'

# 100 ms by the clock, not 256 MiB, which a fast disk cache writes
# within one 20 ms sample: five samples or six, on any host
test_expect_success 'setup: a write with a time series' '
	"$MEMJOB" --name=w --ioengine=psync --rw=write --bs=1m --size=64m \
		--runtime=100ms --time_based --filename="$TEST_TMP/w.dat" \
		--sample_interval=20ms --sample_log=series.csv >/dev/null &&
	test "$(wc -l <series.csv)" -ge 5
'

test_expect_success 'a time series: GB/s over time, Dirty and Writeback on the second axis' '
	"$MEMJOB" plot --script=t.gp --output=t.png series.csv &&
	test "$(kind t.gp)" = "time series" &&
	grep "^set xlabel .time since the run began (s).$" t.gp &&
	grep "^set ylabel .job write or read rate, GB/s" t.gp &&
	grep "^set y2label .Dirty (thin) and Writeback (dashed), MiB" t.gp &&
	grep "using 1:3 axes x1y2 .* title .Dirty (MiB, right axis).," t.gp &&
	grep "using 1:4 axes x1y2 .* title .Writeback (MiB, right axis)." t.gp &&
	grep "title .w, run 1." t.gp &&
	grep "^set title .memjob [^ ]* on $(hostname): w.$" t.gp &&
	# the rate is job_mbps / 1000, Dirty dirty_kb / 1024
	m=$(awk -F, "NR == 2 { print \$7 }" series.csv) &&
	d=$(awk -F, "NR == 2 { print \$12 }" series.csv) &&
	block t.gp s0 | head -n 1 >first &&
	read -r t g dm wm <first &&
	near "$g" "$(awk -v m="$m" "BEGIN { print m / 1000 }")" 0.0001 &&
	near "$dm" "$(awk -v d="$d" "BEGIN { print d / 1024 }")" 0.001
'

test_expect_success TWO_CPUS 'JSON draws the chart its CSV draws' '
	"$MEMJOB" plot --script=j.gp --output=llc.png llc.json &&
	diff <(sed 1d llc.gp) <(sed 1d j.gp)
'

test_expect_success GNUPLOT 'PNG and SVG, to a file or to standard output' '
	"$MEMJOB" plot --output=c.svg count10.csv &&
	head -c 200 c.svg | grep -q "<svg" &&
	"$MEMJOB" plot --output=- count10.csv >out.png &&
	png_ok out.png &&
	"$MEMJOB" plot --output=- --format=svg - <count10.csv >out.svg &&
	grep -q "<svg" out.svg &&
	expect_exit 2 "$MEMJOB" plot --format=gif count10.csv 2>err &&
	grep "expected png or svg" err
'

test_expect_success GNUPLOT 'pipelines: a run into memjob report - and memjob plot -' '
	"$MEMJOB" --output-format=csv --name=a --size=1m --kernel=count \
		--repeat=2 --name=b --size=1m --kernel=sum --stonewall \
		2>err | "$MEMJOB" report - >report.out &&
	cat report.out &&
	grep -E "^ *a " report.out && grep -E "^ *b " report.out &&
	"$MEMJOB" --output-format=csv --name=a --size=1m --kernel=count \
		2>err | "$MEMJOB" plot --output=p.png - &&
	png_ok p.png &&
	"$MEMJOB" --output-format=json --name=a --size=1m --kernel=count \
		2>err | "$MEMJOB" plot --output=- - >pj.png &&
	png_ok pj.png &&
	"$MEMJOB" --output-format=json --name=a --size=1m --kernel=count \
		2>err | "$MEMJOB" report - >rj.out &&
	grep -E "^ *a " rj.out
'

test_expect_success GNUPLOT 'memjob --plot=FILE runs the job and draws it' '
	"$MEMJOB" --plot=run.png --name=a --size=1m --kernel=count \
		--name=b --size=1m --kernel=sum --stonewall >run.out &&
	png_ok run.png &&
	grep "^results: " run.out &&
	"$MEMJOB" --plot=ts.svg --name=w --ioengine=psync --rw=write \
		--bs=1m --size=128m --filename="$TEST_TMP/ts.dat" \
		--sample_interval=20ms --sample_log=ts.csv >/dev/null &&
	grep -q "<svg" ts.svg &&
	grep -q "Dirty (MiB, right axis)" ts.svg
'

test_expect_success '--plot: a name that exists or is no picture exits 2, nothing run' '
	echo keep >have.png &&
	expect_exit 2 "$MEMJOB" --plot=have.png --name=a --ioengine=psync \
		--filename=made.dat --size=64k >out 2>err &&
	grep "option .plot.: .have.png. exists" err &&
	test "$(cat have.png)" = keep &&
	test_path_is_missing made.dat &&
	test ! -s out &&
	expect_exit 2 "$MEMJOB" --plot=pic.gif --name=a --size=64k 2>err &&
	grep "expected a name ending in .png or .svg, got .pic.gif." err
'

test_done
