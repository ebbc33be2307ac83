#!/bin/bash
# t0967-optional-ioengines.sh - an optional data source whose library is
# missing is left out of the build, as fio does: configure says so in its
# summary with the Debian package, the Makefile does not build its file,
# --cmdhelp=ioengine marks it "not in this build", and a job naming it
# exits 2 with the fix.  Built in a copy of the tree (configure writes
# config.mk and engine/config.h beside the sources), with a compiler that
# cannot see libaio.h, at -O0 so that it takes seconds.

# shellcheck disable=SC2016 # test bodies are single-quoted: eval runs them
. t/lib.sh

test_lazy_prereq GIT 'git -C "$SRCDIR" rev-parse --git-dir'

# The message, word for word, that a build without libaio gives (its
# quotes are text: grep -F takes it whole).
# shellcheck disable=SC2089
NO_LIBAIO="option 'ioengine': this memjob was built without libaio (configure did not find libaio-dev): apt-get install -y libaio-dev, then ./configure && make; or use ioengine=io_uring"
# shellcheck disable=SC2090
export NO_LIBAIO

test_expect_success GIT 'setup: a copy of the tree, and a compiler without libaio.h' '
	mkdir src &&
	git -C "$SRCDIR" ls-files -co --exclude-standard -z |
		(cd "$SRCDIR" && xargs -0 tar -cf - --) | tar -xf - -C src &&
	test_path_is_file src/configure &&
	cat >cc-no-libaio <<-\EOF &&
	#!/bin/sh
	# cc, as it is where libaio-dev is not installed
	for a; do
		case $a in
		*.c)	if grep -q "<libaio.h>" "$a" 2>/dev/null; then
				echo "$a: fatal error: libaio.h: No such file or directory" >&2
				exit 1
			fi ;;
		esac
	done
	exec cc "$@"
	EOF
	chmod +x cc-no-libaio
'

test_expect_success GIT 'configure lists libaio as not built, with its package' '
	(cd src && CFLAGS="-O0 -g0" ./configure --cc="$TEST_TMP/cc-no-libaio") >conf.out 2>&1 ||
	{ cat conf.out; false; } &&
	grep -x "checking for libaio... no (Debian package: libaio-dev)" conf.out &&
	grep -x "  not built   libaio: configure did not find libaio-dev; apt-get install -y libaio-dev, then ./configure && make" conf.out &&
	grep "^  ioengines   .* psync" conf.out >built &&
	! grep -w libaio built &&
	grep -x "IOENGINES_LEFT_OUT = libaio" src/config.mk
'

test_expect_success GIT 'make builds memjob without ioengines/libaio.c' '
	make -s -C src -j2 memjob >make.out 2>&1 || { cat make.out; false; } &&
	test -x src/memjob &&
	test_path_is_missing src/build/ioengines/libaio.o &&
	test_path_is_file src/build/ioengines/psync.o
'

test_expect_success GIT '--cmdhelp=ioengine: libaio only as not in this build' '
	src/memjob --cmdhelp=ioengine >help &&
	grep "^    psync  " help &&
	test "$(grep -c "^    libaio " help)" = 1 &&
	grep -x "    libaio       not in this build: configure did not find libaio-dev" help
'

test_expect_success GIT 'a job naming libaio exits 2 with the package and ./configure' '
	expect_exit 2 src/memjob --parse-only --name=a --ioengine=libaio \
		--filename=f >out 2>err &&
	grep -F "$NO_LIBAIO" err &&
	test ! -s out &&
	printf "[a]\nioengine=libaio\nfilename=f\n" >aio.ini &&
	expect_exit 2 src/memjob --parse-only aio.ini 2>err &&
	grep -F "aio.ini:2: $NO_LIBAIO" err &&
	src/memjob --parse-only aio.ini --ioengine=psync --size=4k
'

test_expect_success GIT 'configure --disable-libaio leaves it out, saying so' '
	(cd src && ./configure --disable-libaio) >conf.out 2>&1 ||
	{ cat conf.out; false; } &&
	grep -x "checking for libaio... not looked for (--disable-libaio)" conf.out &&
	grep -x "  not built   libaio: configured with --disable-libaio; ./configure without it (libaio-dev installed) && make" conf.out &&
	grep -x "IOENGINES_LEFT_OUT = libaio" src/config.mk &&
	grep "MEMJOB_IOENGINES_LEFT_OUT(X) X(\"libaio\", \"configured with --disable-libaio\"" src/engine/config.h
'

test_expect_success GIT 'configure --disable-NAME refuses a name that is no optional ioengine or library' '
	expect_exit 1 sh -c "cd src && ./configure --disable-psync" >out 2>err &&
	grep -x "configure: error: --disable-psync: no optional ioengine or library .psync. (the optional ones: libaio libpfm4)" err
'

test_done
