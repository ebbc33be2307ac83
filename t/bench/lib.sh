# t/bench/lib.sh - what every benchmark script needs: sizes, memjob's CSV,
# medians, and the checks before a run.  Sourced, after the script has set
# BENCH to its name (for its messages) and MEMJOB and ROUNDS.
# shellcheck shell=bash

die() {
	echo "$BENCH: $*" >&2
	exit 2
}

# "512m" or "36608K" -> bytes: memjob's, fio's and sysfs's suffixes are
# powers of two.
to_bytes() {
	echo "$1" | awk '{
		s = tolower($0)
		if (!match(s, /^[0-9]+/))
			exit 1
		n = substr(s, 1, RLENGTH)
		u = substr(s, RLENGTH + 1)
		sub(/i?b$/, "", u)
		if (u == "") m = 1
		else if (u == "k") m = 2^10
		else if (u == "m") m = 2^20
		else if (u == "g") m = 2^30
		else if (u == "t") m = 2^40
		else exit 1
		printf "%.0f\n", n * m
	}'
}

# csv_fields COLUMN...: memjob's CSV on stdin -> those columns of its first
# data row, separated by spaces.  Columns are found by header name (the
# first of a name); fields may be quoted (libcsv quotes them all) and a
# quoted field may hold commas.  Fails, naming them, if columns are missing.
csv_fields() {
	awk -v want="$*" '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; q = 0; cur = ""
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c != "\"")
					cur = cur c
				else if (substr(line, i + 1, 1) == "\"") {
					cur = cur "\""
					i++
				} else
					q = 0
			} else if (c == "\"")
				q = 1
			else if (c == ",") {
				f[++n] = cur
				cur = ""
			} else
				cur = cur c
		}
		f[++n] = cur
		return n
	}
	{ sub(/\r$/, "") }
	NR == 1 {
		n = split_csv($0, h)
		for (i = 1; i <= n; i++)
			if (!(h[i] in col))
				col[h[i]] = i
		nw = split(want, w, " ")
		for (i = 1; i <= nw; i++)
			if (!(w[i] in col))
				missing = missing " " w[i]
		if (missing != "") {
			print "missing column(s):" missing > "/dev/stderr"
			exit 1
		}
		next
	}
	NR == 2 {
		split_csv($0, f)
		for (i = 1; i <= nw; i++)
			printf "%s%s", f[col[w[i]]], (i < nw ? " " : "\n")
		found = 1
		exit
	}
	END { if (!found) exit 1 }'
}

# The median of the numbers in a file, one per line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END {
			if (NR % 2)
				printf "%.3f\n", v[(NR + 1) / 2]
			else
				printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# (max - min) / median of the numbers in a file, in percent.
spread() {
	sort -g "$1" | awk '{ v[NR] = $1 }
		END {
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.1f%%\n", (m > 0 ? 100 * (v[NR] - v[1]) / m : 0)
		}'
}

# Before a run: a plain memjob build (a sanitizer build checks every load,
# and its figures would say nothing about memjob) and a number of rounds.
bench_check() {
	[ -x "$MEMJOB" ] ||
		die "no memjob at $MEMJOB (build it first, or set MEMJOB=)"
	if grep -qaE '__(asan|tsan|msan)_init|__ubsan_handle_' "$MEMJOB"; then
		die "$MEMJOB is a sanitizer build; benchmark a plain one (./configure without sanitizers, or MEMJOB=)"
	fi
	[ "$ROUNDS" -ge 1 ] 2>/dev/null ||
		die "ROUNDS=$ROUNDS: not a positive number"
	[ "$ROUNDS" -ge 5 ] ||
		echo "$BENCH: ROUNDS=$ROUNDS: a verdict wants at least 5 alternating rounds" >&2
}

# bench_pin CPU: sets pin to the command prefix that runs a program on
# CPU (taskset), or to nothing when CPU is empty.
bench_pin() {
	pin=
	[ -n "$1" ] || return 0
	command -v taskset >/dev/null 2>&1 ||
		die "CPU=$1 needs taskset (util-linux); or run with CPU="
	taskset -c "$1" true 2>/dev/null || die "cannot pin to CPU $1"
	# shellcheck disable=SC2034 # read by the script that sources this
	pin="taskset -c $1"
}

# bench_tmp: a temporary directory in tmp, removed on exit (an interrupt
# exits 130).
bench_tmp() {
	tmp=$(mktemp -d) || die "cannot make a temporary directory"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
}

# bench_cc NAME FLAGS: build the reference $here/NAME.c into $tmp/NAME with
# $CC -std=gnu11 FLAGS (several, split at spaces; after bench_tmp).
bench_cc() {
	# shellcheck disable=SC2154,SC2086 # here: set by the script that
	# sources this; $2: several flags
	"$CC" -std=gnu11 $2 -o "$tmp/$1" "$here/$1.c" ||
		die "cannot build $here/$1.c with $CC $2"
}

# bench_ratio A B: A / B to 4 places (0 when B is not positive), the
# figure of one round; the table gives the median of the rounds' ratios
# and their spread.
bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", (b > 0 ? a / b : 0) }'
}
