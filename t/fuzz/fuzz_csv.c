/*
 * fuzz_csv.c - libFuzzer harness for the result-CSV reader: the input is
 * read as a table (csv_table_read), then given to `memjob report` three
 * ways (a comparison of the input with itself, --merge as CSV and as
 * JSON), with the output thrown away.
 *
 * Built by `make fuzz`, run by t/fuzz/run.sh; only a crash, a sanitizer
 * report, a leak or a hang is a finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "subcommands/csvtable.h"
#include "subcommands/reportcmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void report_on(const char *path, const char *a, const char *b)
{
	char *argv[8];
	int argc = 0;

	argv[argc++] = (char *)"report";
	argv[argc++] = (char *)"--output=/dev/null";
	if (a)
		argv[argc++] = (char *)a;
	if (b)
		argv[argc++] = (char *)b;
	argv[argc++] = (char *)path;
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	report_main(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_table t;
	char err[512], path[64];
	FILE *f;
	int fd;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (f) {
		if (!csv_table_read(&t, f, "fuzz.csv", NULL, err, sizeof(err)))
			csv_table_free(&t);
		fclose(f);
	}
	fd = memfd_create("fuzz.csv", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		report_on(path, NULL, NULL);
		report_on(path, "--merge", NULL);
		report_on(path, "--merge", "--output-format=json");
	}
	close(fd);
	return 0;
}
