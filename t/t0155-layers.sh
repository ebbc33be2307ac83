#!/bin/bash
# t0155-layers.sh - the stage order of doc/ARCHITECTURE.md holds: no file
# includes, or uses a symbol of, a later stage, and no two modules depend
# on each other (t/helpers/check-layers.sh, on this build's objects); and
# the checker itself finds what it is for, in a small tree of its own.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq OBJECTS 'test -d "$SRCDIR/build/engine" && command -v nm'
test_lazy_prereq GIT 'command -v git && command -v python3'

test_expect_success OBJECTS,GIT 'the tree keeps the stage order, with no cycle' '
	bash "$SRCDIR/t/helpers/check-layers.sh" "$SRCDIR/build" >out 2>&1 ||
	{ cat out; false; } &&
	! grep "^layers:" out
'

test_expect_success GIT 'check-layers finds a later stage'"'"'s include, and a cycle' '
	mkdir -p fake/t/helpers fake/engine/util fake/engine/report fake/engine/run &&
	cp "$SRCDIR/t/helpers/check-layers.sh" fake/t/helpers/ &&
	printf "#include \"report/out.h\"\n" >fake/engine/util/low.c &&
	: >fake/engine/report/out.h &&
	printf "#include \"run/b.h\"\n" >fake/engine/run/a.c &&
	: >fake/engine/run/a.h &&
	printf "#include \"run/a.h\"\n" >fake/engine/run/b.c &&
	: >fake/engine/run/b.h &&
	git -C fake init -q && git -C fake add . &&
	expect_exit 1 bash fake/t/helpers/check-layers.sh >out 2>&1 &&
	grep -x "layers: engine/util/low.c includes engine/report/out.h, a later stage" out &&
	grep "^layers: include cycle among engine/run/a engine/run/b: " out
'

test_expect_success GIT 'a header no .c implements is no module; a .c without a header joins its folder'"'"'s' '
	mkdir -p tree/t/helpers tree/engine/run &&
	cp "$SRCDIR/t/helpers/check-layers.sh" tree/t/helpers/ &&
	printf "#include \"run/exec.h\"\nvoid worker_main(void) { shared(); }\n" >tree/engine/run/worker.c &&
	printf "#pragma once\n#include \"run/types.h\"\nvoid worker_main(void);\nvoid shared(void);\n" >tree/engine/run/exec.h &&
	printf "#include \"run/exec.h\"\nvoid shared(void) { }\nvoid start(void) { worker_main(); }\n" >tree/engine/run/exec.c &&
	printf "#pragma once\n#include \"run/exec.h\"\n" >tree/engine/run/types.h &&
	git -C tree init -q && git -C tree add . &&
	mkdir -p tree/build/engine/run &&
	for f in exec worker; do
		cc -c -Itree/engine -o tree/build/engine/run/$f.o tree/engine/run/$f.c ||
		exit 1
	done &&
	bash tree/t/helpers/check-layers.sh >out 2>&1 ||
	{ cat out; false; } &&
	! grep "cycle" out
'

test_done
