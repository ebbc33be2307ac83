#!/bin/bash
# check-layers.sh [BUILDDIR] - hold the source tree to its stage order.
#
# memjob's code is in folders by stage (doc/ARCHITECTURE.md), lowest first:
#   engine/util  engine/machine  engine/spec  engine/kernels+ioengines
#   engine/parse  engine/plan  engine/run  engine/report
#   engine/subcommands  engine/main.c
# A file may use what its own stage and the stages below it define, never
# what a later stage does.  Checked two ways:
#   includes  every #include "..." of engine/ and ioengines/, resolved as
#             the compiler does (own folder, then -Iengine, then -I.);
#   symbols   with BUILDDIR (default build) holding the objects: which
#             object uses a function or variable that which other defines
#             (nm), so a prototype written by hand is caught as well.
# Both graphs must also be free of cycles between files (a .c and its
# own .h count as one).  Prints each finding; exit status 1 if any.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}

stage() {
	case $1 in
	engine/config.h)	echo 0 ;;
	engine/util/*)		echo 1 ;;
	engine/machine/*)	echo 2 ;;
	engine/spec/*)		echo 3 ;;
	engine/kernels/*|ioengines/*) echo 4 ;;
	engine/parse/*)		echo 5 ;;
	engine/plan/*)		echo 6 ;;
	engine/run/*)		echo 7 ;;
	engine/report/*)	echo 8 ;;
	engine/subcommands/*)	echo 9 ;;
	engine/*/*)		echo unknown ;;
	engine/*)		echo 10 ;;
	build/gen/version*)	echo 1 ;;	# the version string
	build/gen/*)		echo 4 ;;	# codewalk's generated code
	*)			echo unknown ;;
	esac
}

bad=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# module name: the path without .c/.h (a file and its header are one)
mod() { echo "${1%.[ch]}"; }

# ---- includes --------------------------------------------------------------
for f in $(git ls-files 'engine/*.[ch]' 'ioengines/*.[ch]'); do
	s=$(stage "$f")
	if [ "$s" = unknown ]; then
		echo "layers: $f: in no stage (add its folder to check-layers.sh and doc/ARCHITECTURE.md)"
		bad=1
		continue
	fi
	grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "//; s/"$//' |
	while read -r inc; do
		for cand in "$(dirname "$f")/$inc" "engine/$inc" "$inc"; do
			if [ -e "$cand" ]; then
				echo "$f $(realpath -m --relative-to=. "$cand")"
				break
			fi
		done
	done
done >"$tmp/inc"
while read -r from to; do
	sf=$(stage "$from") st=$(stage "$to")
	if [ "$st" = unknown ] || [ "$sf" -lt "$st" ]; then
		echo "layers: $from includes $to, a later stage"
		bad=1
	fi
	[ "$(mod "$from")" != "$(mod "$to")" ] && echo "$(mod "$from") $(mod "$to")"
done <"$tmp/inc" >"$tmp/inc.mod" || true
grep '^layers:' "$tmp/inc.mod" && bad=1
grep -v '^layers:' "$tmp/inc.mod" | sort -u >"$tmp/inc.edges"

# cycles NAME EDGES: each set of files that reach each other, with the
# uses that tie it (Tarjan's strongly connected components)
cycles() {
	python3 - "$1" "$2" <<'PY'
import sys
kind, path = sys.argv[1], sys.argv[2]
g = {}
for line in open(path):
    a, b = line.split()[:2]
    g.setdefault(a, set()).add(b)
    g.setdefault(b, set())
index, low, stack, on, out = {}, {}, [], set(), []
def visit(v):
    work = [(v, iter(sorted(g[v])))]
    index[v] = low[v] = len(index); stack.append(v); on.add(v)
    while work:
        u, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = len(index); stack.append(w); on.add(w)
                work.append((w, iter(sorted(g[w])))); break
            if w in on:
                low[u] = min(low[u], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[u])
            if low[u] == index[u]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == u: break
                if len(comp) > 1: out.append(sorted(comp))
for v in sorted(g):
    if v not in index: visit(v)
for comp in out:
    c = set(comp)
    ties = ["%s -> %s" % (a, b) for a in comp for b in sorted(g[a]) if b in c]
    print("layers: %s cycle among %s: %s" % (kind, " ".join(comp), "; ".join(ties)))
sys.exit(1 if out else 0)
PY
}
cycles "include" "$tmp/inc.edges" || bad=1

# ---- symbols ---------------------------------------------------------------
if [ -d "$build/engine" ]; then
	for o in $(find "$build/engine" "$build/ioengines" "$build/gen" -name '*.o' 2>/dev/null); do
		m=${o#"$build"/}
		case $m in gen/*) m=build/$m ;; esac
		m=${m%.o}
		nm "$o" | awk -v m="$m" '
			$1 == "U" { print "U", m, $2 }
			NF == 3 && $2 ~ /^[TDBRCV]$/ { print "D", m, $3 }'
	done | awk '$1 == "D" { def[$3] = $2; next }
		{ use[NR] = $2 " " $3 }
		END { for (i in use) { split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1])
				print a[1], def[a[2]], a[2] } }' | sort -u >"$tmp/sym"
	while read -r from to name; do
		sf=$(stage "$from.c") st=$(stage "$to.c")
		if [ "$sf" = unknown ] || [ "$st" = unknown ] || [ "$sf" -lt "$st" ]; then
			echo "layers: $from.c uses $name from $to.c, a later stage"
			bad=1
		fi
	done <"$tmp/sym"
	awk '{ print $1, $2 }' "$tmp/sym" | sort -u >"$tmp/sym.edges"
	cycles "symbol" "$tmp/sym.edges" || bad=1
else
	echo "layers: no objects in $build/: symbols not checked (run make first)"
fi
exit $bad
