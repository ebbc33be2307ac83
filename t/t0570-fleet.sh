#!/bin/bash
# t0570-fleet.sh - what a fleet run is made of, without a cluster (the
# real one-node Slurm cluster is t0580): every row names its machine and
# task, in CSV, JSON and the run header alike; the job hash depends on the
# jobs and not on the machine, the machine type on the machine and not on
# the jobs; --output's per-host and per-task patterns, and their refusals;
# and report --by=host on a made-up fleet whose numbers are exact, with
# one slow host and a second machine type.

# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted: eval runs them
. t/lib.sh

JOB="--name=a --size=64k --kernel=count"
MACHINE_COLS="cpu_model cpu_topology kernel_release memjob_version job_hash machine_type"
SLURM_COLS="slurm_job_id slurm_array_job_id slurm_array_task_id slurm_procid slurm_nodename"
export JOB MACHINE_COLS SLURM_COLS
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SLURM_PROCID \
	SLURMD_NODENAME

# A sysroot: fixture tree $1 with a /proc/cpuinfo saying model $2.
# sysroot NAME MODEL: a /proc/cpuinfo naming MODEL under root-NAME; the
# topology itself comes from t/fixtures/topo/NAME.xml (HWLOC_XMLFILE).
sysroot()
{
	mkdir -p "root-$1/proc" &&
	printf 'processor\t: 0\nmodel name\t: %s\n\n' "$2" >"root-$1/proc/cpuinfo"
}

test_expect_success 'the machine columns follow the counters, filled, the Slurm ones empty' '
	"$MEMJOB" --output-format=csv $JOB >out.csv &&
	head -n 1 out.csv | grep ",write_bytes,cycles,.*,llc_load_miss_rate,cpu_model,cpu_topology,kernel_release,memjob_version,job_hash,machine_type,slurm_job_id,slurm_array_job_id,slurm_array_task_id,slurm_procid,slurm_nodename\($\|,\)" &&
	for c in $MACHINE_COLS; do
		test -n "$(csv_col out.csv $c)" || { echo "$c is empty"; false; }
	done &&
	for c in $SLURM_COLS; do
		test -z "$(csv_col out.csv $c)" || { echo "$c is set"; false; }
	done &&
	test "$(csv_col out.csv kernel_release)" = "$(uname -r)" &&
	"$MEMJOB" --version | grep -qF " $(csv_col out.csv memjob_version)" &&
	csv_col out.csv job_hash | grep -Ex "[0-9a-f]{12}" &&
	csv_col out.csv machine_type | grep -Ex "[0-9a-f]{12}"
'

test_expect_success JQ 'JSON: the header and every result say the same as the CSV' '
	SLURM_JOB_ID=77 SLURM_PROCID=1 SLURMD_NODENAME=cn1 \
		"$MEMJOB" --output-format=csv,json $JOB >both &&
	sed -n "1,/^\$/p" both | sed "/^\$/d" >out.csv &&
	sed -n "/^{/,\$p" both >out.json &&
	for c in $MACHINE_COLS slurm_job_id slurm_procid slurm_nodename; do
		v=$(csv_col out.csv $c) &&
		test "$(jq -r ".$c" out.json)" = "$v" &&
		test "$(jq -r ".results[0].$c" out.json)" = "$v" ||
		{ echo "$c differs"; false; }
	done &&
	test "$(jq -r .slurm_job_id out.json)" = 77 &&
	test "$(jq .slurm_array_task_id out.json)" = null &&
	test "$(jq .results[0].slurm_array_job_id out.json)" = null
'

test_expect_success 'the run header names the machine, and the Slurm task under Slurm' '
	"$MEMJOB" $JOB >plain &&
	grep -E "^machine: .+, [0-9?]+s/[0-9?]+c/[0-9]+t.* \(type [0-9a-f]{12}\); job hash [0-9a-f]{12}\$" plain &&
	! grep "^slurm:" plain &&
	SLURM_JOB_ID=12 SLURM_ARRAY_JOB_ID=10 SLURM_ARRAY_TASK_ID=2 \
	SLURM_PROCID=0 SLURMD_NODENAME=cn7 "$MEMJOB" $JOB >slurm &&
	grep -x "slurm: job 12, array 10_2, task 0, node cn7" slurm
'

test_expect_success 'the machine: model from cpuinfo, summary from the topology, type from both' '
	sysroot seed004 "Big Server CPU" &&
	sysroot seed000 "Small Desktop CPU" &&
	HWLOC_XMLFILE=$SRCDIR/t/fixtures/topo/seed004.xml MEMJOB_SYSROOT=$PWD/root-seed004 "$MEMJOB" --output-format=csv $JOB >a.csv &&
	HWLOC_XMLFILE=$SRCDIR/t/fixtures/topo/seed000.xml MEMJOB_SYSROOT=$PWD/root-seed000 "$MEMJOB" --output-format=csv $JOB >b.csv &&
	test "$(csv_col a.csv cpu_model)" = "Big Server CPU" &&
	test "$(csv_col a.csv cpu_topology)" = "2s/32c/64t L1d 32k L1i 32k L2 1m L3 22m" &&
	test "$(csv_col b.csv cpu_topology)" = "1s/4c/8t L1d 48k L1i 32k L2 512k L3 6m" &&
	test "$(csv_col a.csv machine_type)" != "$(csv_col b.csv machine_type)" &&
	# the same jobs on two machines: one hash
	test "$(csv_col a.csv job_hash)" = "$(csv_col b.csv job_hash)" &&
	# no cpuinfo: unknown, and said so
	rm root-seed000/proc/cpuinfo &&
	HWLOC_XMLFILE=$SRCDIR/t/fixtures/topo/seed000.xml MEMJOB_SYSROOT=$PWD/root-seed000 "$MEMJOB" --output-format=csv $JOB >c.csv &&
	test "$(csv_col c.csv cpu_model)" = unknown
'

test_expect_success 'the job hash: the same jobs hash the same, any change does not' '
	"$MEMJOB" --output-format=csv $JOB >1.csv &&
	"$MEMJOB" --output-format=csv $JOB >2.csv &&
	"$MEMJOB" --output-format=csv $JOB --bs=8k >3.csv &&
	"$MEMJOB" --output-format=csv --output=x.csv $JOB &&
	test "$(csv_col 1.csv job_hash)" = "$(csv_col 2.csv job_hash)" &&
	test "$(csv_col 1.csv job_hash)" != "$(csv_col 3.csv job_hash)" &&
	# where the report goes is not the job
	test "$(csv_col 1.csv job_hash)" = "$(csv_col x.csv job_hash)" &&
	# a relative size hashes as written, whatever it comes to here
	"$MEMJOB" --output-format=csv --name=r --size=llc/2 --kernel=count \
		>rel.csv &&
	HWLOC_XMLFILE="$SRCDIR/t/fixtures/topo/seed004.xml" "$MEMJOB" \
		--output-format=csv --name=r --size=llc/2 --kernel=count >rel2.csv &&
	test "$(csv_col rel.csv job_hash)" = "$(csv_col rel2.csv job_hash)"
'

test_expect_success '--output: a file per host and per Slurm task' '
	SLURM_JOB_ID=12 SLURM_ARRAY_JOB_ID=10 SLURM_ARRAY_TASK_ID=2 \
	SLURM_PROCID=3 "$MEMJOB" --output-format=csv \
		--output="r-%h-%j-%A_%a-%t-%%.csv" $JOB &&
	test -s "r-$(hostname)-12-10_2-3-%.csv" &&
	"$MEMJOB" --output-format=csv --output="p-%p.csv" $JOB &&
	test "$(ls p-*.csv | wc -l)" = 1 &&
	ls p-*.csv | grep -Ex "p-[0-9]+\.csv"
'

test_expect_success '--output: a patterned name that exists is not written over' '
	echo mine >"r-$(hostname).csv" &&
	expect_exit 2 "$MEMJOB" --output-format=csv --output="r-%h.csv" \
		$JOB 2>err &&
	grep "command line:[0-9]*: option .output.: .r-$(hostname).csv. (from .r-%h.csv.) exists: memjob does not write over a file it did not create" err &&
	grep "nothing was run" err &&
	test "$(cat "r-$(hostname).csv")" = mine &&
	# a plain name is written as a shell would
	echo old >plain.csv &&
	"$MEMJOB" --output-format=csv --output=plain.csv $JOB &&
	head -n 1 plain.csv | grep "^host,job,"
'

test_expect_success '--output: unknown placeholders and unset variables exit 2, nothing run' '
	mkdir refused && cd refused &&
	expect_exit 2 "$MEMJOB" --output="r-%x.csv" $JOB 2>err &&
	grep "option .output.: unknown placeholder .%x. in .r-%x.csv.: expected %h (host), %j (Slurm job id)" err &&
	expect_exit 2 "$MEMJOB" --output="r-%" $JOB 2>err &&
	grep "a .%. at the end in .r-%." err &&
	expect_exit 2 "$MEMJOB" --output="r-%j.csv" $JOB 2>err &&
	grep "option .output.: .%j. in .r-%j.csv. is the Slurm job id, but SLURM_JOB_ID is not set (not run by Slurm?)" err &&
	expect_exit 2 env SLURM_JOB_ID=1 "$MEMJOB" --output="r-%j-%a.csv" $JOB 2>err &&
	grep "SLURM_ARRAY_TASK_ID is not set" err &&
	test "$(ls)" = err
'

# A fleet of five hosts of one type (h5 slow) and two of another, from one
# real row with host, machine_type and metric rewritten: exact numbers.
fleet_csv()
{
	"$MEMJOB" --output-format=csv $JOB >one.csv &&
	awk -F, -v OFS=, '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{
		n = split("h1 x 10|h2 x 10.2|h3 x 9.9|h4 x 10.1|h5 x 7|" \
			  "o1 y 20|o2 y 21", f, "|")
		for (k = 1; k <= n; k++) {
			split(f[k], v, " ")
			$c["host"] = v[1]; $c["machine_type"] = v[2]
			$c["metric_name"] = "gbps"; $c["metric"] = v[3]
			print
		}
	}' one.csv >fleet.csv
}

test_expect_success 'report --by=host: the fleet median, deviations, the slow host' '
	fleet_csv &&
	test "$(csv_rows fleet.csv)" = 7 &&
	"$MEMJOB" report --by=host --output-format=csv fleet.csv >by.csv &&
	head -n 1 by.csv | grep "^run,metric_name,rows,left_out,median,min,max,baseline,change_pct,verdict,fleet_median,fleet_mad,deviation_pct,outlier,job,phase,machine_type,change_ci_lo_pct,change_ci_hi_pct,ci_level_pct,finding\$" &&
	# type x: medians 10 10.2 9.9 10.1 7: fleet 10, MAD 0.1
	test "$(lines by.csv fleet_median machine_type=x run=h1)" = 10 &&
	awk -v m="$(lines by.csv fleet_mad machine_type=x run=h1)" \
		"BEGIN { exit !(m > 0.0999999 && m < 0.1000001) }" &&
	test "$(lines by.csv deviation_pct machine_type=x run=h5)" = -30.0000 &&
	test "$(lines by.csv deviation_pct machine_type=x run=h2)" = 2.0000 &&
	test "$(lines by.csv outlier machine_type=x)" = "0 0 0 0 1" &&
	# type y: two hosts, too few to judge, and never set against x
	test "$(lines by.csv outlier machine_type=y run=o1)" = "" &&
	test "$(lines by.csv fleet_median machine_type=y run=o1)" = "" &&
	test "$(lines by.csv rows machine_type=y run=h1)" = 0 &&
	"$MEMJOB" report --by=host fleet.csv >by.txt &&
	cat by.txt &&
	grep "^fleet: the median of the runs. medians at each point of 3+ runs;" by.txt &&
	grep "stands out when |x - fleet| > 3 x 1.4826 x MAD" by.txt &&
	grep -x "1 run stands out:" by.txt &&
	grep -x "  h5 at job=a machine_type=x: gbps 7, fleet 10 (-30.0%)" by.txt &&
	grep -E "^ +h5 +1 +7 +7 +7 .* -30\.0% +stands out\$" by.txt &&
	# the table has no line for a host at a point of another type
	test "$(grep -cE "^ *(a +(x|y) +)?(h[1-5]|o[12]) +[0-9]" by.txt)" = 7 &&
	# one job everywhere: no note about jobs
	! grep "ran different jobs" by.txt
'

test_expect_success 'report --by=host notes the points whose hosts ran different jobs' '
	fleet_csv &&
	awk -F, -v OFS=, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i }
		NR > 1 && \$c[\"host\"] == \"o2\" { \$c[\"job_hash\"] = \"0123456789ab\" }
		{ print }" fleet.csv >mixed.csv &&
	"$MEMJOB" report --by=host mixed.csv >mixed.txt &&
	cat mixed.txt &&
	grep -x "note: the rows of these points ran different jobs (their job_hash differs):" mixed.txt &&
	test "$(sed -n "/^note: the rows/,\$p" mixed.txt | sed 1d)" = "  job=a machine_type=y"
'

test_expect_success JQ 'report --by=host as JSON: the fleet figures of the CSV' '
	fleet_csv &&
	"$MEMJOB" report --by=host --output-format=json fleet.csv >by.json &&
	test "$(jq -r "[.points[] | .runs[] | select(.outlier == 1) | .run] | join(\" \")" by.json)" = h5 &&
	test "$(jq ".points[0].runs[] | select(.run == \"h5\") | .deviation_pct" by.json)" = -30 &&
	test "$(jq ".points[1].runs[] | select(.run == \"o1\") | .outlier" by.json)" = null
'

test_expect_success 'without --by, no fleet: its columns are empty and the key is the same' '
	fleet_csv &&
	"$MEMJOB" report --output-format=csv fleet.csv >plain.csv &&
	head -n 1 plain.csv | grep ",outlier,job,phase,change_ci_lo_pct,change_ci_hi_pct,ci_level_pct,finding\$" &&
	test -z "$(csv_get plain.csv fleet_median | tr -d "\n")" &&
	"$MEMJOB" report fleet.csv >plain.txt &&
	! grep -E "stands? out|^fleet:" plain.txt
'

test_done
