#!/bin/bash
# t0965-install.sh - what `make install` gives a packager: the binary, the
# man page with memjob's own version, jobs/ and examples/ in the data
# directory where memjob finds a job by name from anywhere, and bash
# completion of options, values and job names; `make uninstall` takes it
# all away.  Installs into TEST_TMP (DESTDIR), never onto the system.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_expect_success 'make install DESTDIR=stage PREFIX=/usr installs everything' '
	make -s -C "$SRCDIR" install DESTDIR="$PWD/stage" PREFIX=/usr >log 2>&1 ||
	{ cat log; false; } &&
	test -x stage/usr/bin/memjob &&
	test_path_is_file stage/usr/share/man/man1/memjob.1 &&
	test_path_is_file stage/usr/share/memjob/jobs/llc-noisy.ini &&
	test_path_is_file stage/usr/share/memjob/examples/common-mem.inc &&
	test_path_is_file stage/usr/share/bash-completion/completions/memjob &&
	test "$(ls stage/usr/share/memjob/jobs | wc -l)" = \
	     "$(ls "$SRCDIR"/jobs/*.ini | wc -l)"
'

test_expect_success 'the man page says the version memjob --version says' '
	v=$(stage/usr/bin/memjob --version | awk "{ print \$2 }") &&
	test -n "$v" &&
	grep -q "^\.TH MEMJOB 1 \"[^\"]*\" \"memjob $v\"" \
		stage/usr/share/man/man1/memjob.1
'

test_expect_success 'memjob finds a shipped job by name, from anywhere' '
	mkdir elsewhere && cd elsewhere &&
	export MEMJOB_DATADIR="$TEST_TMP/stage/usr/share/memjob" &&
	../stage/usr/bin/memjob --parse-only llc-noisy &&
	../stage/usr/bin/memjob --parse-only jobs/llc-noisy.ini &&
	../stage/usr/bin/memjob --parse-only env-include &&
	../stage/usr/bin/memjob --dump mem-count.ini >dump.ini &&
	grep -q "^\[" dump.ini &&
	expect_exit 2 ../stage/usr/bin/memjob --parse-only no-such-job 2>err &&
	grep -q "nor is it a job shipped in $MEMJOB_DATADIR" err
'

test_expect_success 'a file of the same name here wins over the shipped one' '
	mkdir mine && cd mine &&
	printf "[mine]\nsize=64k\n" >llc-noisy &&
	MEMJOB_DATADIR="$TEST_TMP/stage/usr/share/memjob" \
		"$MEMJOB" --dump llc-noisy >dump.ini &&
	grep -qx "\[mine\]" dump.ini
'

test_expect_success 'memjob --help names the subcommands and the data directory' '
	"$MEMJOB" --help >help &&
	grep -q "memjob report" help && grep -q "memjob plot" help &&
	MEMJOB_DATADIR=/x/y "$MEMJOB" --help | grep -qx "data directory: /x/y"
'

test_expect_success 'bash completion: options, their values, shipped job names' '
	cat >complete.sh <<-\EOS &&
	export PATH="$TEST_TMP/stage/usr/bin:$PATH"
	export MEMJOB_DATADIR="$TEST_TMP/stage/usr/share/memjob"
	. "$TEST_TMP/stage/usr/share/bash-completion/completions/memjob"
	c() { COMP_WORDS=(memjob "$@"); COMP_CWORD=$#; _memjob; printf "%s\n" "${COMPREPLY[@]}"; }
	c --iodep
	c --ioengine = li
	c --rw = rand
	c --kernel=ch
	c llc-n
	c rep
	EOS
	bash complete.sh >got 2>err &&
	grep -qx -- "--iodepth=" got &&
	grep -qx "libaio" got &&
	grep -qx "randread" got && grep -qx "randrw" got &&
	grep -qx -- "--kernel=chase" got &&
	grep -qx "llc-noisy" got &&
	grep -qx "report" got
'

test_expect_success 'make uninstall takes it all away' '
	make -s -C "$SRCDIR" uninstall DESTDIR="$PWD/stage" PREFIX=/usr &&
	test -z "$(find stage -type f)"
'

test_done
