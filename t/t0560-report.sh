#!/bin/bash
# t0560-report.sh - memjob report: result CSVs read back and compared, on
# real memjob output from tiny jobs (a bs sweep, three repeats) and on
# small hand-written CSVs where the numbers must be exact.  Medians and
# changes agree with awk's; standard input works in a pipe; --by=host
# tells the hosts of a merged CSV apart; --merge takes the union of the
# columns in the documented order, and what it writes reads back in
# report and plot; a point one run lacks is shown as missing; the
# comparison as JSON holds the numbers of its CSV, of the table and of
# awk, null where there is none; the merge as JSON is a run's own results;
# and every unusable input or command line exits 2 with a message naming
# the place, and writes nothing.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

# The tiny job: 1 MiB counted in blocks of 4 KiB and 64 KiB, three times.
# shellcheck disable=SC2034 # used by the test bodies
SWEEP="--name=a --size=1m --kernel=count --sweep=bs:4k,64k --repeat=3"

# median_of FILE COL [NAME=VALUE...]: the median of COL over the rows that
# match (csv_get's filters), by sort and awk, exact (%.17g).
median_of()
{
	csv_get "$@" | sort -g | awk '
	{ v[NR] = $1 }
	END {
		if (!NR) exit 1
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.17g\n", m
	}'
}

# change_of NEW BASE: (NEW - BASE) / BASE * 100 with four decimals.
change_of()
{
	awk -v n="$1" -v b="$2" 'BEGIN { printf "%.4f\n", (n - b) / b * 100 }'
}

# same_num A B: A and B are the same number (however written); says so
# when they are not, or when either is no number (empty, null).
same_num()
{
	awk -v a="$1" -v b="$2" '
	function num(v) { return v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
	BEGIN { exit !(num(a) && num(b) && a + 0 == b + 0) }' ||
	{ echo "not the same number: '$1' and '$2'"; return 1; }
}

# table_stats FILE: of a normal report's table, "median min max change
# verdict" per line, in order ("-" for no change).
table_stats()
{
	awk '
	/^(job|phase|[a-z_]+) .* median / { on = 1; next }
	on {
		for (i = 1; i <= NF && $i !~ /\.csv$/; i++)
			;
		i += 2			# past the run and its rows
		if ($i ~ /^\(\+/)
			i += 3		# "(+1 left out)"
		ch = $(i + 3) ~ /%$/ ? $(i + 3) : "-"
		v = ""
		for (k = i + (ch == "-" ? 3 : 4); k <= NF; k++)
			v = v (v == "" ? "" : " ") $k
		print $i, $(i + 1), $(i + 2), ch, v
	}' "$1"
}

# json_stats FILE: the same of a comparison's JSON document, its numbers
# rounded as the table rounds them.
json_stats()
{
	jq -r '.points[].runs[] |
		[.median, .min, .max, .change_pct, .verdict] | @tsv' "$1" |
	awk -F'\t' '
	function fmt(v) {
		return v >= 1000 || v <= -1000 ? sprintf("%.0f", v) : sprintf("%.4g", v)
	}
	{
		gsub(/_/, " ", $5)
		print fmt($1), fmt($2), fmt($3),
		      $4 == "" ? "-" : sprintf("%+.1f%%", $4), $5
	}'
}

# per_run: the jq filter that gives a comparison's JSON as the CSV's
# rows: each point's runs, with the point's key after.
# shellcheck disable=SC2034 # used by the test bodies
PER_RUN='[.points[] | .key as $k | .runs[] | . + $k]'

# expect_refusal PATTERN memjob-args...: exit 2, PATTERN in the message,
# nothing on standard output.
expect_refusal()
{
	local pat=$1
	shift
	expect_exit 2 "$MEMJOB" report "$@" >out 2>err &&
	grep -e "$pat" err &&
	test ! -s out
}

# ---- real runs ----------------------------------------------------------------

test_expect_success 'setup: two runs of a bs sweep, three repeats each' '
	"$MEMJOB" --output-format=csv $SWEEP >r1.csv &&
	"$MEMJOB" --output-format=csv $SWEEP >r2.csv &&
	test "$(csv_rows r1.csv)" = 6 && test "$(csv_rows r2.csv)" = 6 &&
	test "$(lines r1.csv metric_name)" = "gbps gbps gbps gbps gbps gbps"
'

test_expect_success 'compare: medians, min, max and change agree with awk' '
	"$MEMJOB" report --output-format=csv r1.csv r2.csv >cmp.csv &&
	test "$(head -n 1 cmp.csv)" = "run,metric_name,rows,left_out,median,min,max,baseline,change_pct,verdict,fleet_median,fleet_mad,deviation_pct,outlier,job,phase,sweep_bs,change_ci_lo_pct,change_ci_hi_pct,ci_level_pct,finding" &&
	test "$(csv_rows cmp.csv)" = 4 &&
	test "$(lines cmp.csv run)" = "r1.csv r2.csv r1.csv r2.csv" &&
	test "$(lines cmp.csv sweep_bs)" = "4k 4k 64k 64k" &&
	for bs in 4k 64k; do
		b=$(median_of r1.csv metric sweep_bs=$bs) &&
		n=$(median_of r2.csv metric sweep_bs=$bs) &&
		same_num "$(csv_get cmp.csv median run=r1.csv sweep_bs=$bs)" "$b" &&
		same_num "$(csv_get cmp.csv median run=r2.csv sweep_bs=$bs)" "$n" &&
		same_num "$(csv_get cmp.csv baseline run=r2.csv sweep_bs=$bs)" "$b" &&
		lo=$(csv_get r2.csv metric sweep_bs=$bs | sort -g | head -n 1) &&
		hi=$(csv_get r2.csv metric sweep_bs=$bs | sort -g | tail -n 1) &&
		same_num "$(csv_get cmp.csv min run=r2.csv sweep_bs=$bs)" "$lo" &&
		same_num "$(csv_get cmp.csv max run=r2.csv sweep_bs=$bs)" "$hi" &&
		test "$(csv_get cmp.csv change_pct run=r2.csv sweep_bs=$bs)" = \
			"$(change_of "$n" "$b")" &&
		test "$(csv_get cmp.csv rows run=r2.csv sweep_bs=$bs)" = 3 &&
		test "$(csv_get cmp.csv verdict run=r1.csv sweep_bs=$bs)" = baseline &&
		test -z "$(csv_get cmp.csv change_pct run=r1.csv sweep_bs=$bs)" ||
		exit 1
	done
'

test_expect_success 'the normal report: runs, metric, and an aligned table' '
	"$MEMJOB" report r1.csv r2.csv >out 2>err &&
	test ! -s err &&
	grep -x "runs: r1.csv (baseline, 6 rows), r2.csv (6 rows)" out &&
	grep -x "metric: gbps (higher is better)" out &&
	grep -E "^job +bs +run +rows +median +min +max +change +verdict$" out &&
	grep -E "^a +4k +r1\.csv +3 .* baseline$" out &&
	grep -E "^ +r2\.csv +3 .*[-+][0-9]+\.[0-9]%  (better|worse|within spread)$" out &&
	! grep -q " $" out &&
	! grep -q "phase" out
'

test_expect_success 'an items kernel is judged by ns_per_item, lower is better' '
	"$MEMJOB" --output-format=csv --name=c --size=64k --kernel=chase \
		--loops=2 --repeat=2 >chase.csv &&
	"$MEMJOB" report chase.csv >out &&
	grep -x "metric: ns_per_item (lower is better)" out &&
	"$MEMJOB" report --output-format=csv chase.csv >cmp.csv &&
	test "$(csv_col cmp.csv metric_name)" = ns_per_item &&
	same_num "$(csv_col cmp.csv median)" "$(median_of chase.csv metric)"
'

test_expect_success 'standard input: a pipe, as - or as no file at all' '
	"$MEMJOB" --output-format=csv $SWEEP |
		"$MEMJOB" report --output-format=csv r1.csv - >cmp.csv &&
	test "$(lines cmp.csv run)" = "r1.csv - r1.csv -" &&
	test "$(csv_get cmp.csv rows run=- sweep_bs=4k)" = 3 &&
	"$MEMJOB" report --output-format=csv <r2.csv >cmp2.csv &&
	test "$(lines cmp2.csv run)" = "- -" &&
	same_num "$(csv_get cmp2.csv median sweep_bs=64k)" \
		"$(median_of r2.csv metric sweep_bs=64k)" &&
	"$MEMJOB" report --baseline=- r1.csv - <r2.csv >out &&
	grep "^runs: - (baseline, 6 rows), r1.csv (6 rows)$" out
'

test_expect_success 'a point one run lacks is shown, the run marked missing' '
	awk -F, "NR == 1 || \$NF != \"64k\"" r2.csv >r2-4k.csv &&
	test "$(csv_rows r2-4k.csv)" = 3 &&
	"$MEMJOB" report --output-format=csv r1.csv r2-4k.csv >cmp.csv &&
	test "$(csv_rows cmp.csv)" = 4 &&
	test "$(csv_get cmp.csv verdict run=r2-4k.csv sweep_bs=64k)" = missing &&
	test "$(csv_get cmp.csv rows run=r2-4k.csv sweep_bs=64k)" = 0 &&
	test -z "$(csv_get cmp.csv median run=r2-4k.csv sweep_bs=64k)" &&
	test -z "$(csv_get cmp.csv change_pct run=r2-4k.csv sweep_bs=64k)" &&
	"$MEMJOB" report r1.csv r2-4k.csv >out &&
	grep -E "^ +r2-4k\.csv +0 +- +- +- +missing$" out &&
	"$MEMJOB" report --output-format=csv r2-4k.csv r1.csv >cmp.csv &&
	test "$(csv_get cmp.csv verdict run=r2-4k.csv sweep_bs=64k)" = missing &&
	test "$(csv_get cmp.csv verdict run=r1.csv sweep_bs=64k)" = no_baseline
'

# ---- many hosts -----------------------------------------------------------------

test_expect_success 'setup: a second host (r2.csv with its host renamed)' '
	awk -F, -v OFS=, "NR > 1 { \$1 = \"fakehost\" } { print }" r2.csv >h2.csv &&
	test "$(lines h2.csv host)" = "fakehost fakehost fakehost fakehost fakehost fakehost"
'

test_expect_success '--merge: every row, the union of the columns' '
	"$MEMJOB" report --merge r1.csv h2.csv >fleet.csv &&
	test "$(head -n 1 fleet.csv)" = "$(head -n 1 r1.csv)" &&
	test "$(csv_rows fleet.csv)" = 12 &&
	test "$(tail -n +2 fleet.csv)" = "$(tail -n +2 r1.csv; tail -n +2 h2.csv)" &&
	"$MEMJOB" --output-format=csv --name=s --size=64k --kernel=count \
		--sweep=size:64k,128k >s.csv &&
	"$MEMJOB" report --merge r1.csv s.csv >both.csv &&
	test "$(head -n 1 both.csv)" = "$(head -n 1 r1.csv),sweep_size" &&
	test "$(csv_rows both.csv)" = 8 &&
	test "$(lines both.csv sweep_bs)" = "4k 4k 4k 64k 64k 64k" &&
	test -z "$(csv_col both.csv sweep_bs 7)" &&
	test -z "$(csv_col both.csv sweep_size 6)" &&
	test "$(lines both.csv sweep_size)" = "      64k 128k" &&
	awk -F, "{ print NF }" both.csv | sort -u >nf &&
	test "$(cat nf)" = "$(head -n 1 both.csv | awk -F, "{ print NF }")"
'

test_expect_success '--merge: fixed columns in the documented order, then as first seen' '
	write_file odd.csv <<-\EOF &&
	note,metric,job,sweep_x,host,gbps,extra
	n1,1.5,j,1,h,1.5,e
	EOF
	write_file odd2.csv <<-\EOF &&
	sweep_y,host,late,job,status
	2,h2,l,j,ok
	EOF
	"$MEMJOB" report --merge odd.csv odd2.csv >m.csv &&
	test "$(head -n 1 m.csv)" = "host,job,status,gbps,metric,note,extra,late,sweep_x,sweep_y" &&
	test "$(sed -n 2p m.csv)" = "h,j,,1.5,1.5,n1,e,,1," &&
	test "$(sed -n 3p m.csv)" = "h2,j,ok,,,,,l,,2"
'

test_expect_success '--by=host compares the hosts of a merged CSV' '
	"$MEMJOB" report --by=host --output-format=csv fleet.csv >byhost.csv &&
	me=$(csv_col r1.csv host) &&
	test "$(lines byhost.csv run)" = "$me fakehost $me fakehost" &&
	"$MEMJOB" report --output-format=csv r1.csv h2.csv >byfile.csv &&
	# with --by, machine_type joins the default key: one type here
	head -n 1 byhost.csv | grep ",job,phase,machine_type,sweep_bs,change_ci_lo_pct,change_ci_hi_pct,ci_level_pct,finding\$" &&
	test "$(lines byhost.csv machine_type | tr " " "\n" | sort -u)" = \
		"$(csv_col r1.csv machine_type | sort -u)" &&
	"$MEMJOB" report --by=host --key=job,phase,sweep_bs \
		--output-format=csv fleet.csv >byhost-key.csv &&
	cut -d, -f2- byhost-key.csv >a &&
	cut -d, -f2- byfile.csv >b &&
	test_cmp b a &&
	"$MEMJOB" report --by=host --baseline=fakehost fleet.csv >out &&
	grep "^runs: fakehost (baseline, 6 rows), $me (6 rows)$" out
'

test_expect_success 'what --merge writes reads back: report, plot, merge again' '
	"$MEMJOB" report --output-format=csv --by=host fleet.csv >again.csv &&
	test_cmp byhost.csv again.csv &&
	"$MEMJOB" report --merge fleet.csv >fleet2.csv &&
	test_cmp fleet.csv fleet2.csv &&
	"$MEMJOB" report --merge both.csv >both2.csv &&
	test_cmp both.csv both2.csv &&
	"$MEMJOB" plot --x=bs --y=gbps --script=fleet.gp fleet.csv &&
	grep -c "^EOD$" fleet.gp >n &&
	test "$(cat n)" = 2 &&
	grep "title .$(csv_col r1.csv host) a." fleet.gp &&
	grep "title .fakehost a." fleet.gp
'

test_expect_success '--output=FILE: the report there, nothing on standard output' '
	"$MEMJOB" report --output=cmp.txt r1.csv r2.csv >out 2>err &&
	test ! -s out && test ! -s err &&
	grep "^runs: r1.csv" cmp.txt &&
	"$MEMJOB" report --merge --output=m.csv r1.csv h2.csv >out &&
	test ! -s out &&
	test_cmp fleet.csv m.csv
'

# ---- exact numbers ----------------------------------------------------------------

test_expect_success 'setup: hand-written runs with known numbers' '
	write_file base.csv <<-\EOF &&
	host,job,status,phase,metric_name,metric,bytes,sweep_bs
	h,a,ok,,gbps,1,100,4k
	h,a,ok,,gbps,3,300,4k
	h,a,ok,,gbps,2,200,4k
	h,a,ok,,gbps,10,1000,64k
	h,a,ok,,gbps,12,1200,64k
	h,v,ok,alone,ns_per_item,4,40,4k
	h,v,ok,alone,ns_per_item,4,40,4k
	h,v,ok,loaded,ns_per_item,8,80,4k
	EOF
	write_file new.csv <<-\EOF
	host,job,status,phase,metric_name,metric,bytes,sweep_bs
	h,a,ok,,gbps,4,400,4k
	h,a,ok,,gbps,5,500,4k
	h,a,failed,,gbps,,,4k
	h,a,ok,,gbps,11,1100,64k
	h,v,ok,alone,ns_per_item,5,50,4k
	h,v,ok,loaded,ns_per_item,6,60,4k
	h,v,ok,loaded,ns_per_item,7,70,4k
	h,v,ok,loaded,ns_per_item,8,80,4k
	EOF
'

test_expect_success 'known medians, changes and verdicts' '
	"$MEMJOB" report --output-format=csv base.csv new.csv >cmp.csv &&
	test "$(lines cmp.csv median run=base.csv)" = "2 11 4 8" &&
	test "$(lines cmp.csv median run=new.csv)" = "4.5 11 5 7" &&
	test "$(lines cmp.csv rows run=new.csv)" = "2 1 1 3" &&
	test "$(lines cmp.csv left_out run=new.csv)" = "1 0 0 0" &&
	test "$(lines cmp.csv change_pct run=new.csv)" = "125.0000 0.0000 25.0000 -12.5000" &&
	test "$(lines cmp.csv verdict run=new.csv)" = "better within_spread worse within_spread" &&
	test "$(lines cmp.csv phase)" = "    alone alone loaded loaded" &&
	test "$(lines cmp.csv metric_name run=new.csv)" = "gbps gbps ns_per_item ns_per_item"
'

test_expect_success '--metric and --key: another column, another grouping' '
	"$MEMJOB" report --output-format=csv --metric=bytes --key=job \
		base.csv new.csv >cmp.csv &&
	test "$(head -n 1 cmp.csv)" = "run,metric_name,rows,left_out,median,min,max,baseline,change_pct,verdict,fleet_median,fleet_mad,deviation_pct,outlier,job,change_ci_lo_pct,change_ci_hi_pct,ci_level_pct,finding" &&
	test "$(lines cmp.csv median)" = "300 500 40 65" &&
	test "$(lines cmp.csv change_pct)" = " 66.6667  62.5000" &&
	test "$(lines cmp.csv verdict)" = "baseline within_spread baseline within_spread" &&
	"$MEMJOB" report --output-format=csv --metric=bytes --key=job,sweep_bs \
		base.csv new.csv >cmp.csv &&
	test "$(lines cmp.csv verdict run=new.csv)" = "higher within_spread within_spread" &&
	"$MEMJOB" report --output-format=csv --baseline=new.csv base.csv \
		new.csv >cmp.csv &&
	test "$(lines cmp.csv run)" = "new.csv base.csv new.csv base.csv new.csv base.csv new.csv base.csv" &&
	test "$(csv_get cmp.csv change_pct run=base.csv job=a sweep_bs=4k)" = -55.5556
'

test_expect_success 'different metrics at one point are not compared' '
	write_file other.csv <<-\EOF &&
	host,job,status,phase,metric_name,metric,bytes,sweep_bs
	h,a,ok,,ns_per_item,0.5,100,4k
	EOF
	"$MEMJOB" report --output-format=csv base.csv other.csv >cmp.csv &&
	test "$(csv_get cmp.csv verdict run=other.csv sweep_bs=4k job=a)" = metric_differs &&
	test -z "$(csv_get cmp.csv change_pct run=other.csv sweep_bs=4k job=a)" &&
	"$MEMJOB" report base.csv other.csv >out &&
	grep "metric differs (ns_per_item)" out
'

test_expect_success 'rows that are not ok are left out, and counted' '
	"$MEMJOB" report new.csv >out &&
	grep -E "^a +4k +gbps +2 \(\+1 left out\) +4\.5 +4 +5$" out
'

# ---- CSV and JSON ------------------------------------------------------------------

test_expect_success JQ 'json: the inputs, the key, the runs and the baseline' '
	"$MEMJOB" report --output-format=json r1.csv r2.csv >cmp.json &&
	jq -e "type == \"object\"" cmp.json &&
	test "$(jq -r "[.inputs[] | .file, .rows] | map(tostring) | join(\" \")" cmp.json)" = "r1.csv 6 r2.csv 6" &&
	test "$(jq -r ".key | join(\",\")" cmp.json)" = job,phase,sweep_bs &&
	jq -e ".by == \"file\" and .metric == null and .baseline == \"r1.csv\"" cmp.json &&
	test "$(jq -r "[.runs[].run] | join(\" \")" cmp.json)" = "r1.csv r2.csv" &&
	test "$(jq -r "[.points[].key.sweep_bs] | join(\" \")" cmp.json)" = "4k 64k" &&
	jq -e "[.points[] | .key.job == \"a\" and .key.phase == null and
		.metric_name == \"gbps\" and .better == \"higher\"] | all" cmp.json
'

test_expect_success JQ 'json: medians, min, max, change and verdict agree with awk' '
	"$MEMJOB" report --output-format=csv r1.csv r2.csv >cmp.csv &&
	for bs in 4k 64k; do
		for run in r1.csv r2.csv; do
			q=".points[] | select(.key.sweep_bs == \"$bs\") | .runs[] | select(.run == \"$run\")" &&
			same_num "$(jq "$q | .median" cmp.json)" "$(median_of $run metric sweep_bs=$bs)" &&
			same_num "$(jq "$q | .min" cmp.json)" \
				"$(csv_get $run metric sweep_bs=$bs | sort -g | head -n 1)" &&
			same_num "$(jq "$q | .max" cmp.json)" \
				"$(csv_get $run metric sweep_bs=$bs | sort -g | tail -n 1)" &&
			same_num "$(jq "$q | .baseline" cmp.json)" "$(median_of r1.csv metric sweep_bs=$bs)" &&
			test "$(jq "$q | .rows" cmp.json)" = 3 &&
			test "$(jq -r "$q | .verdict" cmp.json)" = \
				"$(csv_get cmp.csv verdict run=$run sweep_bs=$bs)" || exit 1
		done
		b=$(median_of r1.csv metric sweep_bs=$bs) &&
		n=$(median_of r2.csv metric sweep_bs=$bs) &&
		q=".points[] | select(.key.sweep_bs == \"$bs\") | .runs" &&
		same_num "$(jq "$q[1].change_pct" cmp.json)" "$(change_of "$n" "$b")" &&
		test "$(jq "$q[0].change_pct" cmp.json)" = null &&
		test "$(jq -r "$q[0].verdict" cmp.json)" = baseline || exit 1
	done
'

test_expect_success JQ 'json and csv: the same cells, read back through the csv helpers' '
	same_table cmp.csv cmp.json "$PER_RUN" &&
	test "$(jq "$PER_RUN | length" cmp.json)" = "$(csv_rows cmp.csv)"
'

test_expect_success JQ 'json and the normal table: the same figures, rounded' '
	"$MEMJOB" report r1.csv r2.csv >table.txt &&
	table_stats table.txt >table.stats &&
	json_stats cmp.json >json.stats &&
	test "$(wc -l <table.stats)" = 4 &&
	test_cmp table.stats json.stats &&
	"$MEMJOB" report base.csv new.csv >table.txt &&
	"$MEMJOB" report --output-format=json base.csv new.csv >k.json &&
	table_stats table.txt >table.stats &&
	json_stats k.json >json.stats &&
	test "$(wc -l <table.stats)" = 8 &&
	test_cmp table.stats json.stats
'

test_expect_success JQ 'a change on a rounding boundary: one figure in table, CSV and JSON' '
	# +1.74996%: 1.7500 as the CSV figure; a table that rounded the
	# raw change would say +1.7%, the figure re-rounded +1.8%
	printf "host,job,status,metric_name,metric\n" >edge-b.csv &&
	cp edge-b.csv edge-n.csv &&
	for i in 1 2 3 4; do
		echo "h,a,ok,gbps,100000" >>edge-b.csv &&
		echo "h,a,ok,gbps,101749.96" >>edge-n.csv || return 1
	done &&
	"$MEMJOB" report edge-b.csv edge-n.csv >edge.txt &&
	"$MEMJOB" report --output-format=csv edge-b.csv edge-n.csv >edge.csv &&
	"$MEMJOB" report --output-format=json edge-b.csv edge-n.csv >edge.json &&
	cat edge.txt edge.csv &&
	test "$(lines edge.csv change_pct run=edge-n.csv)" = 1.7500 &&
	test "$(lines edge.csv change_ci_lo_pct run=edge-n.csv)" = 1.7500 &&
	test "$(jq ".points[0].runs[1].change_pct" edge.json)" = 1.75 &&
	grep -E "^ +edge-n\.csv +4 +101750 +101750 +101750 +\+1\.8% +\+1\.8\.\.\+1\.8% +better$" edge.txt &&
	test "$(lines edge.csv finding run=edge-n.csv)" = "higher by 1.8% (95% CI 1.8..1.8%)"
'

test_expect_success JQ 'json: known medians, changes and verdicts; absent is null' '
	"$MEMJOB" report --output-format=json base.csv new.csv >k.json &&
	"$MEMJOB" report --output-format=csv base.csv new.csv >k.csv &&
	new() { jq -r "[.points[].runs[] | select(.run == \"new.csv\") | .$1] | map(tostring) | join(\" \")" k.json; } &&
	for col in median min max rows left_out baseline verdict metric_name; do
		test "$(new $col)" = "$(lines k.csv $col run=new.csv)" || exit 1
	done &&
	test "$(new median)" = "4.5 11 5 7" &&
	test "$(new change_pct)" = "125 0 25 -12.5" &&
	test "$(new verdict)" = "better within_spread worse within_spread" &&
	test "$(jq -c "[.points[].key.phase]" k.json)" = "[null,null,\"alone\",\"loaded\"]" &&
	test "$(jq -c "[.points[].better]" k.json)" = "[\"higher\",\"higher\",\"lower\",\"lower\"]" &&
	"$MEMJOB" report --output-format=json r1.csv r2-4k.csv >m.json &&
	jq -e ".points[1].runs[1] | .run == \"r2-4k.csv\" and .verdict == \"missing\" and
		.rows == 0 and .metric_name == null and .median == null and
		.min == null and .max == null and .change_pct == null and
		(.baseline | type) == \"number\"" m.json &&
	"$MEMJOB" report --output-format=json r2-4k.csv r1.csv >m.json &&
	jq -e ".points[1].runs | .[0].verdict == \"missing\" and
		.[1].verdict == \"no_baseline\" and .[1].baseline == null" m.json
'

test_expect_success JQ 'json: --metric, --key and --by are said, and used' '
	"$MEMJOB" report --output-format=json --metric=bytes --key=job,sweep_bs \
		base.csv new.csv >k.json &&
	jq -e ".metric == \"bytes\" and .key == [\"job\", \"sweep_bs\"] and
		.points[0].better == null and .points[0].metric_name == \"bytes\" and
		.points[0].runs[1].verdict == \"higher\" and
		.points[0].runs[1].median == 450" k.json &&
	"$MEMJOB" report --output-format=json --by=host --baseline=fakehost \
		fleet.csv >h.json &&
	me=$(csv_col r1.csv host) &&
	jq -e --arg me "$me" ".by == \"host\" and .baseline == \"fakehost\" and
		[.runs[].run] == [\"fakehost\", \$me] and
		[.runs[].rows] == [6, 6] and .inputs == [{file: \"fleet.csv\", rows: 12}]" h.json
'

test_expect_success JQ 'several formats: normal, csv, json in turn, as each alone' '
	"$MEMJOB" report --output-format=json,normal,csv r1.csv r2.csv >all.out &&
	"$MEMJOB" report r1.csv r2.csv >table.txt &&
	n=$(grep -n "^run,metric_name," all.out | cut -d: -f1) &&
	head -n $((n - 2)) all.out >normal.part &&
	test_cmp table.txt normal.part &&
	test -z "$(sed -n "$((n - 1))p" all.out)" &&
	sed -n "/^run,metric_name,/,/^\$/{/^\$/d;p}" all.out >csv.part &&
	test_cmp cmp.csv csv.part &&
	sed -n "/^{\$/,\$p" all.out >json.part &&
	test_cmp cmp.json json.part
'

test_expect_success JQ '--merge as JSON: the results of the run'"'"'s own document' '
	"$MEMJOB" --output-format=csv,json --name=7 --size=64k --kernel=sum \
		--sweep=bs:4096,16384 --repeat=2 >run.out &&
	sed -n "/^host,job,/,/^\$/{/^\$/d;p}" run.out >run.csv &&
	sed -n "/^{\$/,\$p" run.out >run.json &&
	"$MEMJOB" report --merge --output-format=json run.csv >m.json &&
	jq -S .results run.json >want &&
	jq -S .results m.json >got &&
	test_cmp want got &&
	jq -e ".results | length == 4 and all(.job == \"7\" and
		(.sweep_bs | type) == \"string\" and (.bs | type) == \"number\" and
		(.gbps | type) == \"number\" and .error == null)" m.json &&
	jq -e ".inputs == [{file: \"run.csv\", rows: 4}]" m.json
'

test_expect_success JQ '--merge as CSV and JSON: one table, the same cells' '
	"$MEMJOB" report --merge --output-format=csv,json r1.csv s.csv >both.out &&
	sed -n "/^host,job,/,/^\$/{/^\$/d;p}" both.out >csv.part &&
	test_cmp both.csv csv.part &&
	sed -n "/^{\$/,\$p" both.out >json.part &&
	same_table both.csv json.part .results &&
	jq -e "[.results[] | .sweep_size] == [null, null, null, null, null, null, \"64k\", \"128k\"]" json.part
'

# ---- errors ------------------------------------------------------------------------

test_expect_success 'a file that cannot be opened' '
	expect_refusal "cannot open .nosuch.csv.: No such file" r1.csv nosuch.csv
'

test_expect_success 'a file that is not a memjob result CSV' '
	printf "a,b\n1,2\n" >not.csv &&
	expect_refusal "^memjob report: not.csv:1: not a memjob result CSV: its header has no .host. column$" not.csv &&
	"$MEMJOB" report r1.csv >normal.txt &&
	expect_refusal "normal.txt:1: not a memjob result CSV" normal.txt &&
	: >empty.csv &&
	expect_refusal "empty.csv is empty: no CSV header" empty.csv
'

test_expect_success 'a row with another count of fields than its header' '
	awk "NR == 3 { sub(/,[^,]*\$/, \"\") } { print }" r1.csv >short.csv &&
	n=$(head -n 1 r1.csv | awk -F, "{ print NF }") &&
	expect_refusal "^memjob report: short.csv:3: $((n - 1)) fields, but the header on line 1 has $n$" r1.csv short.csv &&
	expect_refusal "short.csv:3: " --merge short.csv
'

test_expect_success 'a second header unlike the first (cat of two sweeps)' '
	cat r1.csv s.csv >cat.csv &&
	expect_refusal "cat.csv:8: a second header, unlike the one on line 1" cat.csv &&
	cat r1.csv r2.csv | "$MEMJOB" report --output-format=csv >cmp.csv &&
	test "$(lines cmp.csv rows)" = "6 6"
'

test_expect_success 'an unknown column: the nearest one is named' '
	expect_refusal "^memjob report: --metric: no column .gbsp. in r1.csv; did you mean .gbps.?$" --metric=gbsp r1.csv &&
	expect_refusal "no column .sweep_b. in any input; did you mean .sweep_bs.?" --key=job,sweep_b r1.csv r2.csv &&
	expect_refusal "--by: no column .hots. in r1.csv; did you mean .host.?" --by=hots r1.csv &&
	expect_refusal "no column .zzzzzzzzzzzz. in r1.csv (see memjob(1), CSV)" --metric=zzzzzzzzzzzz r1.csv
'

test_expect_success 'a metric that is not a number' '
	sed "3s/,gbps,3,/,gbps,fast,/" base.csv >slow.csv &&
	expect_refusal "^memjob report: slow.csv:3: column .metric.: expected a number, got .fast.$" base.csv slow.csv &&
	sed "2s/,100,/,lots,/" base.csv >lots.csv &&
	expect_refusal "lots.csv:2: column .bytes.: expected a number, got .lots." --metric=bytes lots.csv
'

test_expect_success '--baseline that names no run' '
	expect_refusal "^memjob report: --baseline=r3.csv: no run is called that; the runs are .r1.csv., .r2.csv.$" --baseline=r3.csv r1.csv r2.csv
'

test_expect_success 'unknown options and wrong values' '
	expect_refusal "unknown option .--metrc=gbps.; did you mean .--metric.?" --metrc=gbps r1.csv &&
	expect_refusal "unknown option .--frobnicate." --frobnicate r1.csv &&
	expect_refusal "unknown option .-x." -x r1.csv &&
	expect_refusal "--by needs a value" --by r1.csv &&
	expect_refusal "^memjob report: --output-format=jsn: expected normal, csv, json or a comma list of them, each at most once; got .jsn.; did you mean .json.?$" --output-format=jsn r1.csv &&
	expect_refusal "--output-format=csv,xml: .*got .xml. in .csv,xml.$" --output-format=csv,xml r1.csv &&
	expect_refusal "--output-format=json,json: .*got .json. twice" --output-format=json,json r1.csv &&
	expect_refusal "--output-format=normal has no use with it" --merge --output-format=normal,json r1.csv &&
	expect_refusal "--key=job,,sweep_bs: expected column names" --key=job,,sweep_bs r1.csv &&
	expect_refusal "--metric has no use with it" --merge --metric=gbps r1.csv &&
	expect_refusal "--merge takes no value" --merge=yes r1.csv &&
	expect_refusal "standard input is read once" - - <r1.csv
'

test_expect_success 'nothing is overwritten: not on an error, never an input' '
	echo precious >keep.txt &&
	expect_refusal "no column" --output=keep.txt --metric=gbsp r1.csv &&
	test "$(cat keep.txt)" = precious &&
	expect_refusal "short.csv:3" --merge --output=keep.txt r1.csv short.csv &&
	test "$(cat keep.txt)" = precious &&
	cp r1.csv in.csv &&
	expect_refusal "^memjob report: --output=in.csv is an input too" --merge --output=in.csv in.csv r2.csv &&
	test_cmp r1.csv in.csv &&
	expect_refusal "cannot write it" --output=no/such/dir/x.txt r1.csv &&
	test_path_is_missing no
'

test_expect_success '--help prints the usage' '
	"$MEMJOB" report --help >out &&
	grep "^usage: memjob report \[OPTIONS\] \[FILE|-\]\.\.\.$" out &&
	for o in key by metric baseline output-format output merge; do
		grep -q -- "--$o" out || { echo "--$o is not in the usage"; exit 1; }
	done &&
	grep -q -- "--output-format=LIST  normal (a table), csv (its rows), json" out
'

test_done
