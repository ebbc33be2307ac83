# Makefile - builds memjob, its unit tests and test helpers (GNU make).
#
# Sources are found by wildcard: a new engine/*/*.c, ioengines/*.c,
# t/unit/test_*.c or shared unit-test helper t/unit/*.c needs no edit here.  Objects go to build/, mirroring the
# source tree; header dependencies come from the compiler (-MMD -MP).
# ./configure writes config.mk (flags, libraries) and engine/config.h.

SHELL := /bin/bash

# Targets that work without a configured tree.
NOCONFIG_GOALS := clean distclean help

ifeq ($(wildcard config.mk),)
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
$(error config.mk not found: run ./configure first)
endif
else
include config.mk
endif

PREFIX ?= /usr/local
DESTDIR ?=
CPPCHECK ?= cppcheck
CLANG_TIDY ?= clang-tidy

# An optional data source that configure left out (IOENGINES_LEFT_OUT,
# its library missing or --disable-NAME) is not built: its file is
# ioengines/NAME.c.  An optional library's code comes in two files, one
# built with the library and one without; SRCS_LEFT_OUT names the other.
SRCS := $(filter-out $(IOENGINES_LEFT_OUT:%=ioengines/%.c) $(SRCS_LEFT_OUT), \
	$(sort $(wildcard engine/*.c engine/*/*.c ioengines/*.c)))
# Written at build time: kernel=codewalk's code footprint (codewalk.h),
# and the version (version.h).
GEN_SRCS := build/gen/codewalk_funcs.c build/gen/version.c
OBJS := $(SRCS:%.c=build/%.o) $(GEN_SRCS:%.c=%.o)
MAIN_OBJ := build/engine/main.o
LIB_OBJS := $(filter-out $(MAIN_OBJ),$(OBJS))
# Everything but main(), for the unit tests: an archive, so each test pulls
# in only the modules it uses (as git's libgit.a does).
LIB := build/libmemjob.a

TEST_SRCS := $(sort $(wildcard t/unit/test_*.c))
TESTS := $(TEST_SRCS:t/unit/%.c=build/t/%)
# Code the unit tests share (t/unit/*.c but test_*.c, e.g. fixture.c): an
# archive too, linked into every test before LIB.
TEST_HELPER_SRCS := $(filter-out $(TEST_SRCS),$(sort $(wildcard t/unit/*.c)))
TEST_HELPER_OBJS := $(TEST_HELPER_SRCS:%.c=build/%.o)
TEST_LIB := build/t/libtesthelp.a
HELPERS := build/t/count_plain build/t/touch_mem build/t/lockdown

# Hot loops: compute kernels are built at -O3 whatever the base level is
# (sanitizer flags are kept), and without fused multiply-add, so a
# kernel's floating point gives the same bits at every vector level, the
# baseline's (which has no FMA on x86-64) included.
KERNEL_OBJS := $(filter build/engine/kernels/%.o,$(OBJS))
HOT_CFLAGS = $(patsubst -O%,-O3,$(CFLAGS)) -ffp-contract=off

DEPS := $(OBJS:.o=.d) $(TESTS:=.d) $(HELPERS:=.d) $(TEST_HELPER_OBJS:.o=.d) \
	build/sqlite-batch.d

.PHONY: all check install uninstall lint cppcheck clang-tidy layers man clean \
	distclean bench seeds help unit-tests helpers fuzz goldens FORCE
.DELETE_ON_ERROR:

# Seed 001's own experiment, run by kernel=exec (jobs/icache-sqlite.ini):
# built where configure found sqlite3.
PROGRAMS := $(if $(filter yes,$(HAVE_SQLITE)),memjob-sqlite-batch)

all: memjob $(PROGRAMS)

memjob-sqlite-batch: examples/sqlite-batch.c config.mk
	@mkdir -p build
	$(CC) $(CFLAGS) $(SQLITE_CFLAGS) -MMD -MP -MF build/sqlite-batch.d \
		-o $@ $< $(LDFLAGS) $(SQLITE_LIBS)

memjob: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

# Every object is rebuilt when configure changes the flags.
build/%.o: %.c config.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(KERNEL_OBJS): build/%.o: %.c config.mk
	@mkdir -p $(@D)
	$(CC) $(HOT_CFLAGS) -MMD -MP -c -o $@ $<

build/gen/codewalk_funcs.c: engine/kernels/gen-codewalk.sh engine/kernels/codewalk.h
	@mkdir -p $(@D)
	sh engine/kernels/gen-codewalk.sh engine/kernels/codewalk.h >$@

# The version is the source's at build time, not configure's: git
# describe in a git checkout of memjob, configure's VERSION otherwise (a
# release tarball).  Rewritten only when it changes, so a build with
# nothing new relinks nothing.
build/gen/version.c: FORCE
	@mkdir -p $(@D)
	@v=$(VERSION); \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ]; then \
		v=$$(git describe --tags --always --dirty 2>/dev/null || echo "$$v"); \
	fi; \
	printf '/* written by make (git describe): do not edit */\n#include "util/version.h"\nconst char memjob_version[] = "%s";\n' "$$v" >$@.new; \
	if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; echo "  GEN     $@ ($$v)"; fi

FORCE:

# Generated sources are built like kernels; lint leaves them out (only
# SRCS are linted).
$(GEN_SRCS:%.c=%.o): %.o: %.c config.mk
	@mkdir -p $(@D)
	$(CC) $(HOT_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(TEST_HELPER_OBJS): build/%.o: %.c config.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(TEST_LIB): $(TEST_HELPER_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $(TEST_HELPER_OBJS)

build/t/test_%: t/unit/test_%.c $(TEST_LIB) $(LIB) config.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(TEST_CFLAGS) -MMD -MP -o $@ $< $(TEST_LIB) $(LIB) \
		$(LDFLAGS) $(LIBS) $(TEST_LIBS)

# The test oracle is independent of the engine: it links nothing of ours.
build/t/count_plain: t/helpers/count_plain.c config.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -o $@ $< $(LDFLAGS)

# kernel=exec's counters are tested on a program with known page faults:
# built without the sanitizers, whose runtime faults in pages of its own.
build/t/touch_mem: t/helpers/touch_mem.c config.mk
	@mkdir -p $(@D)
	$(CC) $(filter-out -fsanitize% -fno-sanitize%,$(CFLAGS)) -MMD -MP \
		-o $@ $< $(filter-out -fsanitize% -fno-sanitize%,$(LDFLAGS))

# Runs a command with features taken away (seccomp, capabilities, a
# read-only /sys, fewer CPUs), for the locked-down tests.
build/t/lockdown: t/helpers/lockdown.c $(TEST_LIB) config.mk
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -o $@ $< $(TEST_LIB) $(LDFLAGS)

unit-tests: $(TESTS)

# What make check runs besides memjob: the programs t/ uses.
helpers: $(HELPERS)

# Sources include it; -MP would otherwise quietly accept its absence.
engine/config.h:
	$(error engine/config.h is missing: run ./configure)

ifeq ($(HAVE_CMOCKA),no)
ifneq ($(filter check unit-tests build/t/test_%,$(MAKECMDGOALS)),)
$(error the unit tests need cmocka: apt-get install -y libcmocka-dev, then ./configure)
endif
endif

# make check T="t0710 test_value" runs those tests only (name prefixes or
# globs); the tests run as many at once as make -jN says, else as many as
# there are CPUs (TEST_JOBS=N chooses; t/run-tests.sh).
# A cross build's tests run under the emulator configure found
# (config.mk's TEST_EXEC, in their environment).
check: export TEST_EXEC := $(TEST_EXEC)
check: memjob $(PROGRAMS) $(TESTS) $(HELPERS)
	bash t/run-tests.sh $(addprefix -j,$(or $(TEST_JOBS),$(filter-out -j,$(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))))) $(T)

bench: memjob $(HELPERS)
	@set -e; n=0; for f in $(sort $(filter-out t/bench/lib.sh,$(wildcard t/bench/*.sh))); do \
		echo "== $$f"; bash "$$f"; n=$$((n + 1)); \
	done; [ $$n -gt 0 ] || echo "no benchmarks in t/bench/"

# doc/SEEDS.md is this target's output: every seed's shipped job run here,
# its figures set beside the author's (doc/seeds/*.json) and the verdicts
# computed from them (doc/seeds/seeds.sh; under 15 minutes on a 2-vCPU
# guest).  Run it on a quiet machine and commit the page.
seeds: memjob $(PROGRAMS)
	doc/seeds/seeds.sh -o doc/SEEDS.md

# The man page gets memjob's own version (memjob --version), so the two
# come from one source; jobs/ and examples/ go to the data directory that
# memjob searches for a job named on its command line.
DATA_DIR = $(DESTDIR)$(PREFIX)/share/memjob
COMPLETION = $(DESTDIR)$(PREFIX)/share/bash-completion/completions/memjob

install: memjob $(PROGRAMS)
	install -D -m 0755 memjob $(DESTDIR)$(PREFIX)/bin/memjob
	$(if $(PROGRAMS),install -m 0755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/)
	@mkdir -p $(DESTDIR)$(PREFIX)/share/man/man1
	v=$$(./memjob --version | awk '{ print $$2 }'); \
	sed "s/^\(\.TH MEMJOB 1 \"[^\"]*\" \)\"memjob [^\"]*\"/\1\"memjob $$v\"/" \
		man/memjob.1 >$(DESTDIR)$(PREFIX)/share/man/man1/memjob.1
	install -d $(DATA_DIR)/jobs $(DATA_DIR)/examples
	install -m 0644 jobs/*.ini $(DATA_DIR)/jobs
	install -m 0644 $(filter-out %.sh,$(wildcard examples/*)) $(DATA_DIR)/examples
	install -D -m 0644 engine/memjob-completion.bash $(COMPLETION)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/memjob \
		$(DESTDIR)$(PREFIX)/bin/memjob-sqlite-batch \
		$(DESTDIR)$(PREFIX)/share/man/man1/memjob.1 $(COMPLETION)
	rm -rf $(DATA_DIR)

# ---- lint -----------------------------------------------------------------

# clang-tidy checks.  Left out, because they flag correct C far more often
# than bugs: swappable parameters (every f(ptr, len)), reserved identifiers
# (include guards), narrowing and widening (size_t/int arithmetic), string
# compares used as booleans (!strcmp(a, b) is the C idiom), the "insecure
# API" family (every memcpy and snprintf), the opt-in analyzers (struct
# padding, malloc(0) portability), and valist.Uninitialized, which
# misfires on any va_list handed to a function as a parameter (LLVM 14).
TIDY_CHECKS := -* bugprone-* clang-analyzer-* \
	-bugprone-easily-swappable-parameters \
	-bugprone-reserved-identifier \
	-bugprone-narrowing-conversions \
	-bugprone-implicit-widening-of-multiplication-result \
	-bugprone-suspicious-string-compare \
	-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling \
	-clang-analyzer-security.insecureAPI.strcpy \
	-clang-analyzer-optin.* \
	-clang-analyzer-valist.Uninitialized

# Known findings, as FILE:CHECK: still printed, but they do not fail the
# lint.  Remove an entry with its fix; add none for new code.
#   parse.c     realloc(..., n * sizeof(*n)) for an array of pointers
#               (false positive; LLVM 14 has no option to turn it off)
TIDY_BASELINE := \
	engine/parse/parse.c:bugprone-sizeof-expression

comma := ,
empty :=
space := $(empty) $(empty)
TIDY_STAMPS := $(SRCS:%.c=build/tidy/%.ok)

tidy_allowed = $(patsubst $(1):%,%,$(filter $(1):%,$(TIDY_BASELINE)))

# -k: report every finding in one run, not just the first file's.
lint:
	@$(MAKE) --no-print-directory -k cppcheck clang-tidy layers

cppcheck:
	$(CPPCHECK) --quiet --std=c11 -D_GNU_SOURCE \
		--enable=warning,performance,portability --error-exitcode=1 \
		--inline-suppr --suppress=missingIncludeSystem \
		-Iengine -I. engine ioengines examples

clang-tidy: $(TIDY_STAMPS)

# The stage order (doc/ARCHITECTURE.md): includes, and the symbols that
# the objects use, so it runs once they are built.
layers: $(OBJS)
	bash t/helpers/check-layers.sh build

# One stamp per source, so "make -j2 lint" runs in parallel and a second
# run only re-checks what changed (the object's dependencies cover headers).
build/tidy/%.ok: %.c build/%.o Makefile
	@mkdir -p $(@D)
	@echo "  TIDY    $<"
	@$(CLANG_TIDY) --quiet \
		--checks='$(subst $(space),$(comma),$(strip $(TIDY_CHECKS)))' \
		--warnings-as-errors='*$(foreach c,$(call tidy_allowed,$<),$(comma)-$(c))' \
		--header-filter='(engine|ioengines)/' \
		$< -- $(CFLAGS) 2>&1 | { grep -v '^[0-9]* warnings\? generated\.$$' || true; }; \
		exit $${PIPESTATUS[0]}
	@touch $@

# ---- fuzzing --------------------------------------------------------------

# libFuzzer harnesses (t/fuzz/fuzz_*.c) for the job-file path and the
# report CSV reader, built with clang whatever CC is: the engine's sources
# again, under build/fuzz/, with the fuzzer's coverage and ASan + UBSan.
# t/fuzz/run.sh SECONDS runs each on its seed corpus.
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -pthread -Iengine -I. \
	-fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_SRCS := $(sort $(wildcard t/fuzz/fuzz_*.c))
FUZZERS := $(FUZZ_SRCS:t/fuzz/%.c=build/fuzz/%)
FUZZ_OBJS := $(LIB_OBJS:build/%=build/fuzz/obj/%)

fuzz: $(FUZZERS)

build/fuzz/obj/%.o: %.c config.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

build/fuzz/obj/gen/%.o: build/gen/%.c config.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

build/fuzz/fuzz_%: t/fuzz/fuzz_%.c $(FUZZ_OBJS) config.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) \
		$(LDFLAGS) $(LIBS)

# (made by pattern rules, but kept: a second build relinks only)
.SECONDARY: $(FUZZ_OBJS)
-include $(FUZZ_OBJS:.o=.d)

# ---- man page -------------------------------------------------------------

# Replace the option reference between the markers with the one the
# option table prints, so the man page and the code cannot disagree.
man: memjob
	$(if $(strip $(IOENGINES_LEFT_OUT)),$(error make man needs every \
		ioengine built, to document them all; this build leaves out \
		$(strip $(IOENGINES_LEFT_OUT)): see ./configure's summary))
	@mkdir -p build
	./memjob --cmdhelp=roff >build/options.roff
	@echo "  GEN     man/memjob.1"
	@awk -v gen=build/options.roff ' \
		/^\.\\" BEGIN GENERATED OPTIONS/ { \
			print; while ((getline l < gen) > 0) print l; \
			skip = 1; begin++; next } \
		/^\.\\" END GENERATED OPTIONS/ { skip = 0; end++ } \
		!skip { print } \
		END { if (begin != 1 || end != 1) { \
			print "man/memjob.1: need exactly one BEGIN and one" \
			      " END GENERATED OPTIONS marker" > "/dev/stderr"; \
			exit 1 } }' man/memjob.1 >build/memjob.1.new
	mv build/memjob.1.new man/memjob.1

# ---- golden reports ------------------------------------------------------
# The layout of each shipped job's normal report, figures masked, that
# t/t0505-report-layout.sh compares with: regenerate after changing a
# label on purpose, read the diff, commit it (t/golden/README).
goldens: memjob $(PROGRAMS)
	bash t/helpers/report-golden.sh --write

# ---- housekeeping ---------------------------------------------------------

clean:
	rm -rf build memjob memjob-sqlite-batch

distclean: clean
	rm -f config.mk engine/config.h

help:
	@echo "targets: all (memjob), check [T=NAMES], install, uninstall," \
	      "lint, man, goldens, bench, seeds, fuzz (clang), clean, distclean"
	@echo "first: ./configure [--sanitize=address,undefined] [--werror]"

-include $(DEPS)
