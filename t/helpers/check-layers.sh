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
#             (nm), so a prototype written by hand is caught as well; only
#             the objects of sources that exist and that configure did
#             not leave out (an old object would tie stale files).
# Both graphs must also be free of cycles between modules.  A module is
# a .c and its own .h; a .c with no .h of its own that defines what a
# header of its folder declares (worker.c, exec.h's worker_main) is part
# of that header's module; a header that no .c implements (job.h) holds
# no code, so an include of it counts as the includes it makes.  A
# registry (the file that defines *_registry) names every plugin of its
# stage, and the plugins use its helpers: its uses of the ops it lists
# are held to the stage order but are no cycle.
# Prints each finding; exit status 1 if any.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
build=${build%/}

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

# Sources, and the generated ones (their includes too keep the order),
# all named from the root, however BUILDDIR was written.
sources=$(git ls-files 'engine/*.[ch]' 'ioengines/*.[ch]'
	  for f in "$build"/gen/*.c; do
		[ -e "$f" ] && realpath -m --relative-to=. "$f"
	  done)

# resolve FILE INC: the file '#include "INC"' in FILE names, looked for
# as the compiler does (FILE's folder, then -Iengine, then -I.)
resolve() {
	local cand
	for cand in "$(dirname "$1")/$2" "engine/$2" "$2"; do
		if [ -e "$cand" ]; then
			realpath -m --relative-to=. "$cand"
			return
		fi
	done
}

includes() { grep -o '^#include "[^"]*"' "$1" | sed 's/^#include "//; s/"$//'; }

# ---- includes --------------------------------------------------------------
for f in $sources; do
	if [ "$(stage "$f")" = unknown ]; then
		echo "layers: $f: in no stage (add its folder to check-layers.sh and doc/ARCHITECTURE.md)" >&2
		continue
	fi
	includes "$f" | while read -r inc; do
		to=$(resolve "$f" "$inc")
		[ -n "$to" ] && echo "$f $to"
	done
done >"$tmp/inc" 2>"$tmp/nostage"
[ -s "$tmp/nostage" ] && cat "$tmp/nostage" && bad=1
while read -r from to; do
	sf=$(stage "$from") st=$(stage "$to")
	if [ "$st" = unknown ] || [ "$sf" -lt "$st" ]; then
		echo "layers: $from includes $to, a later stage"
	fi
done <"$tmp/inc" >"$tmp/inc.bad"
[ -s "$tmp/inc.bad" ] && cat "$tmp/inc.bad" && bad=1

# $tmp/modmap: "FILE MODULE" for each .c with no .h of its own that
# defines a function or an object that a header of its own folder, which
# it includes, declares.
for f in $sources; do
	case $f in *.c) ;; *) continue ;; esac
	[ -e "${f%.c}.h" ] && continue
	sed -n -E '/^(static|extern|typedef) /!s/^[a-z][^;=(]*[ *]([a-z_][a-z0-9_]*) *(\(|=|\[).*/\1/p' "$f" |
		grep -v -x -E 'void|int|char|bool|const|unsigned|long|size_t' |
		sort -u | paste -s -d '|' >"$tmp/defs"
	[ -s "$tmp/defs" ] || continue
	decl="(^|[^a-z0-9_])($(cat "$tmp/defs")) *(\(|;|\[)"
	while read -r from to; do
		if [ "$from" != "$f" ] || [ "$(dirname "$to")" != "$(dirname "$f")" ] ||
		   [ "${to%.h}" = "$to" ]; then
			continue
		fi
		if grep -v '^ *\*' "$to" | grep -q -E "$decl"; then
			echo "$f ${to%.h}"
			break
		fi
	done <"$tmp/inc"
done >"$tmp/modmap"

# cycles NAME EDGES: each set of modules that reach each other, with the
# uses that tie it (Tarjan's strongly connected components).  EDGES has
# "FROM TO" files; $tmp/modmap joins a file to its module; an include of
# a header that no .c implements stands for the includes it makes.
cycles() {
	python3 - "$1" "$2" "$tmp/modmap" <<'PY'
import os, sys
kind, path, modmap = sys.argv[1:4]
join = dict(line.split() for line in open(modmap))
def mod(f):
    return join.get(f, os.path.splitext(f)[0])
fe = {}
for line in open(path):
    a, b = line.split()[:2]
    fe.setdefault(a, set()).add(b)
implemented = {mod(f) for f in fe.keys() | set().union(*fe.values())
               if f.endswith(".c")} | set(join.values())
def codeless(f):
    return (f.endswith(".h") and mod(f) not in implemented
            and not os.path.exists(f[:-2] + ".c"))
g = {}
for a in fe:
    if codeless(a):
        continue
    seen, todo = set(), list(fe[a])
    while todo:
        b = todo.pop()
        if b in seen:
            continue
        seen.add(b)
        if codeless(b):
            todo.extend(fe.get(b, ()))
        elif mod(a) != mod(b):
            g.setdefault(mod(a), set()).add(mod(b))
            g.setdefault(mod(b), set())
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
cycles "include" "$tmp/inc" || bad=1

# ---- symbols ---------------------------------------------------------------
# The objects of this build: those of sources that exist and that
# configure did not leave out (an object left over from an older tree or
# build would tie files that are no longer linked together).
left_out=$(sed -n 's/^IOENGINES_LEFT_OUT *= *//p' config.mk 2>/dev/null)
if [ -d "$build/engine" ]; then
	find "$build/engine" "$build/ioengines" "$build/gen" -name '*.o' 2>/dev/null |
	while read -r o; do
		m=${o#"$build"/}
		case $m in gen/*) m=build/$m ;; esac
		m=${m%.o}
		[ -e "$m.c" ] || continue
		case " $left_out " in *" ${m#ioengines/} "*) continue ;; esac
		nm "$o" | awk -v m="$m" '
			$1 == "U" { print "U", m, $2 }
			NF == 3 && $2 ~ /^[TDBRCV]$/ { print "D", m, $3, $2 }'
	done | awk '$1 == "D" { def[$3] = $2; type[$3] = $4
			if ($3 ~ /_registry$/) registry[$2] = 1; next }
		{ use[NR] = $2 " " $3 }
		END { for (i in use) { split(use[i], a, " ")
			if ((a[2] in def) && def[a[2]] != a[1])
				print a[1], def[a[2]], a[2], \
				      listed(a[1], a[2]) ? "listed" : "used" } }
		function listed(user, sym) {
			return (user in registry) && type[sym] ~ /[DR]/ }' |
		sort -u >"$tmp/sym"
	while read -r from to name _; do
		sf=$(stage "$from.c") st=$(stage "$to.c")
		if [ "$sf" = unknown ] || [ "$st" = unknown ] || [ "$sf" -lt "$st" ]; then
			echo "layers: $from.c uses $name from $to.c, a later stage"
			bad=1
		fi
	done <"$tmp/sym"
	# a registry's list of its plugins is no cycle (see the top)
	awk '$4 == "used" { print $1 ".c", $2 ".c" }' "$tmp/sym" | sort -u >"$tmp/sym.edges"
	cycles "symbol" "$tmp/sym.edges" || bad=1
else
	echo "layers: no objects in $build/: symbols not checked (run make first)"
fi
exit $bad
