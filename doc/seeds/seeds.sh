#!/bin/bash
# doc/seeds/seeds.sh - regenerate doc/SEEDS.md: run every seed's shipped job,
# set the figures memjob printed (its JSON) beside the author's, and decide
# from those figures whether the author's conclusion holds here.
#
#	doc/seeds/seeds.sh [--tiny] [--work DIR] [-o FILE]	(make seeds)
#
# The author's side lives in doc/seeds/NNN-*.json, one file per seed:
#
#   runs        the jobs to run: job file, environment (env; tiny for
#               --tiny), extra memjob arguments (args, tiny_args) and how
#               many separate invocations (times; 1 with --tiny)
#   crosschecks the cheap outside measurements to set beside (size,
#               tiny_size): cat-twice, dd-write, count-loop (below)
#   figures     one figure each: the run it comes from and a jq filter
#               over that run's JSON giving its values (values; the page
#               shows median, min..max and N over every invocation), or an
#               object {median, min, max, n} that memjob computed itself
#               (summary: e.g. a slowdown and its range)
#   claims      one table row each: the author's figures and conclusion
#               (typed from the seed), the figures it rests on (uses), the
#               test over their medians (a jq filter, input {name: median})
#               that says "yes", and jq filters over {m: medians, runs:
#               {run: [JSON...]}} whose strings explain a "no" (reasons)
#
# A claim whose figures did not all come out (a point the machine cannot
# run) is "no", explained by the run's notes.  Every "no" carries a reason:
# those its filters found, else the host's noise line of that run.
#
# --tiny cuts every size to seconds (for t/t0980-seeds.sh); its figures
# mean nothing.  --work DIR (or SEEDS_WORK=DIR) keeps the runs' JSON,
# stderr and commands there, to check the page against (default: a
# temporary directory, removed at the end).  -o FILE
# (default doc/SEEDS.md) is written only once the whole page is made.
# MEMJOB (default ./memjob of this tree) and JQ may be set.

# shellcheck disable=SC2016 # the jq programs are single-quoted on purpose
set -eu
set -o pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
MEMJOB=${MEMJOB:-$SRC/memjob}
JQ=${JQ:-jq}
TINY=0
WORK=${SEEDS_WORK:-}
# The command the page names: make seeds, or this script's own line.
invocation="doc/seeds/seeds.sh${*:+ $*}"
if [ -n "${MAKELEVEL:-}" ] && [ "$*" = "-o doc/SEEDS.md" ]; then
	invocation="make seeds"
fi
OUT=$SRC/doc/SEEDS.md

die() { echo "seeds.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--tiny) TINY=1 ;;
	--work) [ $# -ge 2 ] || die "--work needs a directory"; WORK=$2; shift ;;
	-o) [ $# -ge 2 ] || die "-o needs a file"; OUT=$2; shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown argument '$1' (expected --tiny, --work DIR, -o FILE)" ;;
	esac
	shift
done

[ -x "$MEMJOB" ] || die "no memjob at $MEMJOB: build it first (make)"
command -v "$JQ" >/dev/null || die "jq not found: it reads memjob's JSON"
own_work=
if [ -z "$WORK" ]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/memjob-seeds.XXXXXX")
	own_work=$WORK
fi
cleanup() { [ -z "$own_work" ] || rm -rf "$own_work"; }
trap cleanup EXIT
mkdir -p "$WORK/runs" "$WORK/cross" "$WORK/data" "$WORK/seeds"
# The jobs find memjob-sqlite-batch on PATH; their files go to WORK/data.
export PATH="$SRC:$PATH"

now_ns() { date +%s%N; }

# bytes SIZE: 8m, 1g, 512k as bytes (2^10 units, memjob's).
bytes()
{
	local n=${1%[kKmMgG]}
	case $1 in
	*[kK]) echo $((n << 10)) ;;
	*[mM]) echo $((n << 20)) ;;
	*[gG]) echo $((n << 30)) ;;
	*) echo "$n" ;;
	esac
}

# gbps BYTES NS: bytes per ns is GB/s (10^9 bytes per second).
gbps() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.3g", b / t }'; }

# The cross-checks: each prints one line of text for the page.
# cat-twice SIZE: a file laid out with dd, its pages dropped (dd's
# iflag=nocache, this file only), then read twice with cat, as the author
# did.
cross_cat_twice()
{
	local f=$WORK/data/cross-cat.dat b t0 t1 t2
	b=$(bytes "$1")
	dd if=/dev/zero of="$f" bs=1M count=$((b >> 20)) conv=fsync status=none
	dd if="$f" iflag=nocache count=0 status=none
	t0=$(now_ns); cat "$f" >/dev/null
	t1=$(now_ns); cat "$f" >/dev/null
	t2=$(now_ns)
	rm -f "$f"
	echo "cat of $1: cold $(gbps "$b" $((t1 - t0))) GB/s, warm $(gbps "$b" $((t2 - t1))) GB/s"
}

# dd-write SIZE: dd from /dev/zero with oflag=direct, then buffered (no
# fsync, as the author's dd), each into a fresh file.
cross_dd_write()
{
	local f=$WORK/data/cross-dd.dat b n t0 t1 t2
	b=$(bytes "$1")
	n=$((b >> 20))
	t0=$(now_ns)
	dd if=/dev/zero of="$f" bs=1M count="$n" oflag=direct status=none
	t1=$(now_ns)
	rm -f "$f"
	dd if=/dev/zero of="$f" bs=1M count="$n" status=none
	t2=$(now_ns)
	rm -f "$f"
	echo "dd of $1: direct $(gbps "$b" $((t1 - t0))) GB/s, buffered $(gbps "$b" $((t2 - t1))) GB/s"
}

# count-loop SIZE: t/bench/count_loop.c, a hand-written unrolled count
# over data in RAM (3 timed passes).
cross_count_loop()
{
	local bin=$WORK/count_loop out
	if [ ! -x "$bin" ]; then
		"${CC:-cc}" -O3 -march=native -o "$bin" "$SRC/t/bench/count_loop.c" ||
			{ echo "count_loop did not build"; return 0; }
	fi
	out=$("$bin" "$(bytes "$1")" 3 count) || { echo "count_loop failed"; return 0; }
	out=${out##*gbps=}
	echo "plain C unrolled count in RAM ($1): $(awk -v g="${out%% *}" 'BEGIN { printf "%.3g", g }') GB/s"
}

# stats: a JSON array of numbers in, {median, min, max, n} out.
STATS='map(select(. != null)) | sort | length as $n |
	if $n == 0 then {median: null, min: null, max: null, n: 0}
	else {median: (if $n % 2 == 1 then .[($n - 1) / 2]
		       else (.[$n / 2 - 1] + .[$n / 2]) / 2 end),
	      min: .[0], max: .[$n - 1], n: $n} end'

# busy_cpus: CPUs' worth of non-idle time over one second, from /proc/stat
busy_cpus()
{
	local a b
	a=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat)
	sleep 1
	b=$(awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat)
	awk -v a="$a" -v b="$b" -v n="$(nproc)" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		busy = y[1] - x[1]; idle = y[2] - x[2]
		printf "%.2f", (busy + idle > 0) ? n * busy / (busy + idle) : 0 }'
}

start_ns=$(now_ns)
start_date=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# How many CPUs other work kept busy in the second before the runs: the
# load average lags by minutes, so it cannot tell a quiet start from one
# just after a build.
busy_start=$(busy_cpus)
first_json=

for seedfile in "$SRC"/doc/seeds/[0-9][0-9][0-9]-*.json; do
	seed=$("$JQ" -r .seed "$seedfile")
	echo "seeds.sh: seed $seed" >&2

	# The runs.
	for run in $("$JQ" -r '.runs | keys_unsorted[]' "$seedfile"); do
		r=$("$JQ" -c --arg r "$run" '.runs[$r]' "$seedfile")
		job=$("$JQ" -r .job <<<"$r")
		if [ "$TINY" = 1 ]; then
			mapfile -t envs < <("$JQ" -r '.tiny // {} | to_entries[] | "\(.key)=\(.value)"' <<<"$r")
			mapfile -t args < <("$JQ" -r '.tiny_args // [] | .[]' <<<"$r")
			times=1
		else
			mapfile -t envs < <("$JQ" -r '.env // {} | to_entries[] | "\(.key)=\(.value)"' <<<"$r")
			mapfile -t args < <("$JQ" -r '.args // [] | .[]' <<<"$r")
			times=$("$JQ" -r '.times // 1' <<<"$r")
		fi
		base=$WORK/runs/$seed-$run
		echo "${envs[*]} memjob ${args[*]} $job" | sed 's/^ //; s/  */ /g' >"$base.cmd"
		t0=$(now_ns)
		for i in $(seq 1 "$times"); do
			if ! (cd "$WORK/data" && env "${envs[@]}" "$MEMJOB" "${args[@]}" \
				--output-format=json --output="$base.$i.json" \
				"$SRC/$job") 2>"$base.$i.err"; then
				cat "$base.$i.err" >&2
				die "seed $seed, run $run ($(cat "$base.cmd")) failed"
			fi
			[ -n "$first_json" ] || first_json=$base.$i.json
		done
		echo $(( ($(now_ns) - t0) / 1000000 )) >"$base.ms"
		echo "seeds.sh:   $run: $(cat "$base.cmd"), x$times, $(cat "$base.ms") ms" >&2
	done

	# The cross-checks.
	for cc in $("$JQ" -r '.crosschecks | keys_unsorted[]' "$seedfile"); do
		key=$([ "$TINY" = 1 ] && echo tiny_size || echo size)
		size=$("$JQ" -r --arg c "$cc" --arg k "$key" '.crosschecks[$c][$k]' "$seedfile")
		fn=cross_${cc//-/_}
		declare -F "$fn" >/dev/null || die "$seedfile: no cross-check '$cc'"
		"$fn" "$size" >"$WORK/cross/$seed-$cc.txt"
	done

	# The context the figures, tests and reasons read: every run's JSON.
	ctx=$WORK/seeds/$seed.ctx.json
	runs_json=$WORK/seeds/$seed.runs.json
	{
		echo '{'
		sep=
		for run in $("$JQ" -r '.runs | keys_unsorted[]' "$seedfile"); do
			printf '%s"%s": ' "$sep" "$run"
			"$JQ" -s . "$WORK/runs/$seed-$run".[0-9]*.json
			sep=,
		done
		echo '}'
	} >"$runs_json"

	# The figures, in one jq program made from the seed file: each is
	# {median, min, max, n} over every invocation of its run.
	figs=$WORK/seeds/$seed.figures.json
	prog=$("$JQ" -r --arg stats "$STATS" '.figures | to_entries | map(
		"\(.key | tojson): ((" + (if .value.summary then
			"[.\(.value.run | tojson)[] | \(.value.summary)] | first // {median: null, min: null, max: null, n: 0}"
		else "[.\(.value.run | tojson)[] | \(.value.values)] | \($stats)" end)
		+ ") + {label: \(.value.label | tojson), unit: \(.value.unit | tojson), run: \(.value.run | tojson)})")
		| "{" + join(",\n") + "}"' "$seedfile")
	"$JQ" "$prog" "$runs_json" >"$figs" ||
		die "$seedfile: a figure's filter failed"
	"$JQ" -n --slurpfile runs "$runs_json" --slurpfile f "$figs" \
		'{m: ($f[0] | map_values(.median)), runs: $runs[0]}' >"$ctx"

	# The claims: the test over the medians, and the reasons for a "no".
	claims=$WORK/seeds/$seed.claims.json
	echo '[]' >"$claims"
	nclaims=$("$JQ" '.claims | length' "$seedfile")
	for ((c = 0; c < nclaims; c++)); do
		cl=$("$JQ" -c --argjson c "$c" '.claims[$c]' "$seedfile")
		test_expr=$("$JQ" -r .test <<<"$cl")
		missing=$("$JQ" -r --slurpfile x "$figs" '[.uses[] | $x[0][.] | select(.median == null) | .label] | join(" / ")' <<<"$cl")
		if [ -n "$missing" ]; then
			same=no
		else
			v=$("$JQ" -r ".m | ($test_expr)" "$ctx") ||
				die "$seedfile: claim $c: the test '$test_expr' failed"
			case $v in
			true) same=yes ;;
			false) same=no ;;
			*) die "$seedfile: claim $c: the test gave '$v', not true/false" ;;
			esac
		fi
		reasons='[]'
		if [ "$same" = no ]; then
			mapfile -t rexprs < <("$JQ" -r '.reasons // [] | .[]' <<<"$cl")
			for rx in "${rexprs[@]}"; do
				got=$("$JQ" -L "$SRC/doc/seeds" -c "include \"num\"; [$rx | strings]" "$ctx") ||
					die "$seedfile: claim $c: the reason '$rx' failed"
				reasons=$("$JQ" -c --argjson a "$reasons" --argjson b "$got" -n '$a + $b')
			done
			# Once each, in the order found.
			reasons=$("$JQ" -c -n --argjson a "$reasons" \
				'reduce $a[] as $x ([]; if any(.[]; . == $x) then . else . + [$x] end)')
			if [ -n "$missing" ]; then
				reasons=$("$JQ" -c --argjson a "$reasons" --arg m "$missing" -n \
					'["not measured here: " + $m] + $a')
			fi
			# Nothing found: the run's own line on the host's noise.
			if [ "$reasons" = '[]' ] || [ "$reasons" = "[\"not measured here: $missing\"]" ]; then
				run=$("$JQ" -r --slurpfile s "$seedfile" '$s[0].figures[.uses[0]].run' <<<"$cl")
				reasons=$("$JQ" -c --argjson a "$reasons" --arg r "$run" \
					'$a + [.runs[$r][0].host_noise.text // empty | "no quirk of this host explains it; its noise: " + .]' "$ctx")
			fi
		fi
		cross=
		ccname=$("$JQ" -r '.crosscheck // empty' <<<"$cl")
		[ -z "$ccname" ] || cross=$(cat "$WORK/cross/$seed-$ccname.txt")
		"$JQ" --argjson cl "$cl" --arg same "$same" --argjson why "$reasons" \
			--arg cross "$cross" '. + [$cl + {same: $same, why: $why, cross: $cross}]' \
			"$claims" >"$claims.new"
		mv "$claims.new" "$claims"
	done
done

[ -n "$first_json" ] || die "no seed files in $SRC/doc/seeds"
elapsed_s=$(( ($(now_ns) - start_ns) / 1000000000 ))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# The page, from the seed files, the figures, the claims and the commands.
{
	for seedfile in "$SRC"/doc/seeds/[0-9][0-9][0-9]-*.json; do
		seed=$("$JQ" -r .seed "$seedfile")
		"$JQ" -c --slurpfile f "$WORK/seeds/$seed.figures.json" \
			--slurpfile c "$WORK/seeds/$seed.claims.json" \
			'{seed, title, source, author_machine, figures: $f[0], claims: $c[0],
			  runs: (.runs | keys_unsorted)}' "$seedfile"
	done
} | "$JQ" -L "$SRC/doc/seeds" -s -r -f "$SRC/doc/seeds/page.jq" \
	--slurpfile first "$first_json" \
	--arg cmd "$invocation" --arg date "$start_date" --arg secs "$elapsed_s" \
	--arg load_start "$load_start" --arg load_end "$load_end" \
	--arg busy_start "$busy_start" \
	--arg tiny "$TINY" --arg nproc "$(nproc)" \
	--rawfile cmds <(for f in "$WORK"/runs/*.cmd; do
		b=$(basename "$f" .cmd)
		set -- "$WORK/runs/$b".[0-9]*.json
		n=$#
		printf '%s\t%s\t%s\t%s\n' "${b%%-*}" "$(cat "$f")" "$n" "$(cat "$WORK/runs/$b.ms")"
	done) >"$OUT.tmp.$$" || { rm -f "$OUT.tmp.$$"; die "the page could not be made"; }
mv "$OUT.tmp.$$" "$OUT"
echo "seeds.sh: wrote $OUT in ${elapsed_s} s" >&2
