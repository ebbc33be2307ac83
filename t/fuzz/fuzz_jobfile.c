/*
 * fuzz_jobfile.c - libFuzzer harness for the job-file path: the input is
 * a job file, taken through parse -> check -> sweep -> plan, as
 * memjob --parse-only does; nothing runs and nothing is created.
 *
 * Built by `make fuzz` (clang -fsanitize=fuzzer,address,undefined) and run
 * by t/fuzz/run.sh.  Diagnostics go to /dev/null: a bad job file is the
 * common case here, and only a crash, a sanitizer report, a leak or a hang
 * is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/check.h"
#include "parse/parse.h"
#include "plan/plan.h"
#include "parse/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct jobset js = { 0 }, runs = { 0 };
	struct sweep_notes notes = { 0 };
	struct parser *ps;
	struct diag d;
	char *text;

	if (!sink)
		sink = fopen("/dev/null", "w");
	text = malloc(size + 1);
	if (!text || !sink) {
		free(text);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	diag_init(&d, sink);
	ps = parser_new(&d);
	if (ps && !parser_add_string(ps, "fuzz.ini", text) &&
	    !parser_finish(ps, NULL, 0, &js) && !d.errors &&
	    !jobs_check(&js, NULL, &d) &&
	    !jobs_expand(&js, &runs, &notes, NULL, &d)) {
		struct plan plan;

		plan_build(&runs, NULL, &d, &plan);
		plan_free(&plan);
	}
	jobset_free(&runs);
	sweep_notes_free(&notes);
	jobset_free(&js);
	if (ps)
		parser_free(ps);
	free(text);
	return 0;
}
