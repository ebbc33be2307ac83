#!/bin/bash
# t/fuzz/run.sh [SECONDS] - run each libFuzzer harness (make fuzz), side
# by side, for SECONDS (default 60) on its seed corpus; exit 1 on a crash,
# a sanitizer report, a leak or a hang (a timeout), with the input that
# did it kept under build/fuzz/findings/.
#
# Seeds: the job-file harness starts from every job file the project
# ships (jobs/, examples/) and every broken one (t/broken/); the CSV
# harness from t/fuzz/csv-seeds/ and the CSV fixtures under t/fixtures/.
# The corpus grows under build/fuzz/corpus-*/ and is kept between runs.
set -u
cd "$(dirname "$0")/../.." || exit 1

secs=${1:-60}
out=build/fuzz
status=0

seed()
{
	local dir=$1
	shift
	mkdir -p "$dir"
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr / _)"
	done
	return 0
}

seed "$out/corpus-jobfile" jobs/* examples/* t/broken/*
seed "$out/corpus-csv" t/fuzz/csv-seeds/* $(find t/fixtures -name '*.csv')
mkdir -p "$out/findings"

# fuzz HARNESS: run one harness for secs; its summary is printed whole
# when it ends; 1 when it found something.
fuzz()
{
	local h=$1 bin=$out/fuzz_$1

	if [ ! -x "$bin" ]; then
		echo "$bin is missing: run make fuzz" >&2
		return 1
	fi
	# The harnesses' own output (error messages for bad inputs) goes
	# to the log with libFuzzer's; a finding is summed up below.
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$out/findings/$h-" \
		"$out/corpus-$h" >"$out/fuzz_$h.log" 2>&1; then
		{
			echo "== fuzz_$h for $secs s"
			echo "fuzz_$h: FOUND something (log $out/fuzz_$h.log):"
			grep -E "ERROR|SUMMARY|runtime error|Test unit written" \
				"$out/fuzz_$h.log" | head -n 20
		} >&2
		return 1
	fi
	echo "== fuzz_$h for $secs s"
	grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)" \
		"$out/fuzz_$h.log" | tail -n 3
}

# The harnesses side by side, one CPU each where there are two: the
# same time and executions per harness as one after the other, in half
# the wall time.
pids=()
for h in jobfile csv; do
	fuzz "$h" >"$out/fuzz_$h.summary" 2>&1 &
	pids+=($!)
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || status=1
done
cat "$out"/fuzz_jobfile.summary "$out"/fuzz_csv.summary
exit $status
