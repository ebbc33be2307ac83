#!/bin/bash
# report-golden.sh - the layout of the normal report of every shipped job,
# run at tiny sizes, with everything a run measures masked: what
# t/t0505-report-layout.sh compares with t/golden/report/JOB.txt.
#
#     t/helpers/report-golden.sh [--write] [JOB...]      (or: make goldens)
#
# Without --write it prints each JOB's masked report (jobs/JOB.ini; all
# of jobs/*.ini when none is named); with --write it stores them as the
# goldens, after a line that says how the job was shrunk and how many runs
# its plan had here (the test skips a job whose plan has another count on
# its machine: more CPUs give llc-noisy more points).  Regenerate them
# after changing a label of the normal report, read the diff, commit.
#
# The mask keeps words and the order of lines and turns every figure into
# N: numbers (signed, decimal, exponent), sizes in any binary unit (N B),
# times in s or ms (N s); the machine's own lines (machine:, system:,
# sysctl:, topology:, the counters it cannot count) lose their text, and
# its quirks (quirks:, and the note a table gives where one explains a
# point) go, since how many there are depends on the host; the
# lines a measurement decides to print or how to word (the host-noise
# warnings, a slowdown's verdict, a knee's finding, a footprint row's
# ratios) become one fixed word; runs of spaces become one, so a wider
# number moves no column.  Two runs of one job on one machine give the
# same masked text whatever they measure.
#
# Sourced (by the test), it only defines tiny_env, golden_run and
# golden_mask.

# tiny_env JOB DIR: the environment that shrinks JOB, files under DIR
# (the table is t/helpers/job-sizes.sh's, shared with t0970).
# shellcheck source=t/helpers/job-sizes.sh
. "${BASH_SOURCE[0]%/*}/job-sizes.sh"
tiny_env()
{
	job_env tiny "$1" "$2"
}

# golden_mask: the masked report, from stdin.
golden_mask()
{
	sed -E \
	    -e 's/^memjob [^ ]+ on [^:]+: [0-9]+ CPUs?, Linux [^;]+;/memjob V on H: N CPUs, Linux R;/' \
	    -e 's/^(machine|system|sysctl|topology): .*/\1: .../' \
	    -e '/^counters not counted in any run /d' \
	    -e '/^quirks: /d' \
	    -e '/^ +[a-z]+ keeps lines cached on this CPU /d' \
	    -e '/^host noise: /d' \
	    -e '/^ +WARNING: /d' \
	    -e 's/^( +)(no effect found|slower by|faster by|too few repeats|no interval)\b.*/\1VERDICT/' \
	    -e 's/(steal|frequency|waited for a CPU) (not readable|[0-9.]+( ?%| MHz)?( \(of [0-9]+ ticks\))?)/\1 X/g' \
	    -e 's/^( +host, victim.s CPUs[^:]*:).*/\1 X/' \
	    -e 's/run 1 a warm-up outlier: [-+0-9.]+%; //' \
	    -e 's/(; )?run 1 a warm-up outlier: [-+0-9.]+%//' \
	    -e 's/a clone RAN SHORTER than the others in [0-9]+ runs?; //' \
	    -e 's/(; )?a clone RAN SHORTER than the others in [0-9]+ runs?//' \
	    -e 's/^(  L[0-9a-z]+ +[0-9.]+ [KMGT]?i?B) .*/\1 FINDING/' \
	    -e 's/^(  [0-9]+[kmg]? +[-+0-9.]+ +)([-+0-9.]+ +[-+0-9.]+ +([0-9.]+x|-)|baseline)$/\1ROW/' \
	    -e 's/[-+]?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g' \
	    -e 's/N (B|KiB|MiB|GiB|TiB)\b/N B/g' \
	    -e 's/N (s|ms)\b/N s/g' \
	    -e 's/ +/ /g' -e 's/ $//'
}

# golden_run JOB DIR: JOB's normal report at tiny sizes (stderr dropped),
# run from the top of the tree (icache-sqlite finds its program there).
golden_run()
{
	local job=$1 d=$2 mj=${MEMJOB:-$PWD/memjob}

	# shellcheck disable=SC2046 # the settings are words on purpose
	(cd "${SRCDIR:-.}" && env $(tiny_env "$job" "$d") "$mj" \
		"jobs/$job.ini" 2>/dev/null)
}

# golden_runs JOB DIR: how many runs JOB's plan has here.
golden_runs()
{
	# shellcheck disable=SC2046
	env $(tiny_env "$1" "$2") "${MEMJOB:-./memjob}" --plan \
		"${SRCDIR:-.}/jobs/$1.ini" 2>/dev/null | grep -c '^run [0-9]*:'
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	write=
	[ "${1:-}" = --write ] && { write=1; shift; }
	cd "$(dirname "$0")/../.." || exit 1
	MEMJOB=${MEMJOB:-$PWD/memjob}
	jobs=("$@")
	[ ${#jobs[@]} -eq 0 ] && for f in jobs/*.ini; do
		jobs+=("$(basename "$f" .ini)")
	done
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p t/golden/report
	for j in "${jobs[@]}"; do
		rm -rf "${tmp:?}"/* && mkdir -p "$tmp/d"
		{
			echo "# jobs/$j.ini with $(tiny_env "$j" DIR); $(golden_runs "$j" "$tmp/d") runs planned here"
			golden_run "$j" "$tmp/d" | golden_mask
		} >"$tmp/out"
		if [ -n "$write" ]; then
			cp "$tmp/out" "t/golden/report/$j.txt"
			echo "wrote t/golden/report/$j.txt"
		else
			cat "$tmp/out"
		fi
	done
fi
