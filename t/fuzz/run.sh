#!/bin/bash
# t/fuzz/run.sh [SECONDS] - run each libFuzzer harness (make fuzz) for
# SECONDS (default 60) on its seed corpus; exit 1 on a crash, a sanitizer
# report, a leak or a hang (a timeout), with the input that did it kept
# under build/fuzz/findings/.
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

for h in jobfile csv; do
	bin=$out/fuzz_$h
	if [ ! -x "$bin" ]; then
		echo "$bin is missing: run make fuzz" >&2
		exit 1
	fi
	echo "== fuzz_$h for $secs s"
	# The harnesses' own output (error messages for bad inputs) goes
	# to the log with libFuzzer's; a finding is summed up below.
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$out/findings/$h-" \
		"$out/corpus-$h" >"$out/fuzz_$h.log" 2>&1; then
		status=1
		echo "fuzz_$h: FOUND something (log $out/fuzz_$h.log):" >&2
		grep -E "ERROR|SUMMARY|runtime error|Test unit written" \
			"$out/fuzz_$h.log" | head -n 20 >&2
	fi
	grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)" \
		"$out/fuzz_$h.log" | tail -n 3
done
exit $status
