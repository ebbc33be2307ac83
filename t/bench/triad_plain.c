/*
 * triad_plain.c - the reference for t/bench/triad-vs-plain.sh: STREAM's
 * triad as one writes it by hand, sharing no code with memjob.
 *
 *	triad_plain SIZE_BYTES LOOPS [nt]
 *
 * Three arrays of SIZE_BYTES / 24 doubles each, in one page-aligned
 * allocation (a, then b, then c, as STREAM's static arrays lie), every
 * page touched by the initialisation (a = 0, b = 2, c = 1), one untimed
 * pass, then LOOPS timed passes of a[i] = b[i] + 3 * c[i].  With "nt" the
 * stores of a go through SSE2 streaming stores.  Prints
 *
 *	gbps=X check=Y
 *
 * X counts STREAM's 24 bytes per element; Y is a[n / 2], which must be 5.
 */
#include <emmintrin.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pass_plain(double *restrict a, const double *restrict b,
		       const double *restrict c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + 3.0 * c[i];
}

static void pass_nt(double *restrict a, const double *restrict b,
		    const double *restrict c, size_t n)
{
	const __m128d q = _mm_set1_pd(3.0);
	size_t i;

	for (i = 0; i + 2 <= n; i += 2)
		_mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i),
				_mm_mul_pd(q, _mm_load_pd(c + i))));
	for (; i < n; i++)
		a[i] = b[i] + 3.0 * c[i];
	_mm_sfence();
}

int main(int argc, char **argv)
{
	unsigned long long size, loops;
	double *a, *b, *c, t0, t;
	size_t n, i;
	int nt;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "nt"))) {
		fprintf(stderr, "usage: triad_plain SIZE_BYTES LOOPS [nt]\n");
		return 1;
	}
	size = strtoull(argv[1], NULL, 0);
	loops = strtoull(argv[2], NULL, 0);
	nt = argc == 4;
	n = (size_t)(size / 24);
	n -= n % 2;			/* b and c stay 16-byte aligned */
	if (n < 2 || loops < 1) {
		fprintf(stderr, "triad_plain: SIZE_BYTES >= 48, LOOPS >= 1\n");
		return 1;
	}
	if (posix_memalign((void **)&a, 4096, 3 * n * sizeof(double))) {
		fprintf(stderr, "triad_plain: %s\n", strerror(ENOMEM));
		return 1;
	}
	b = a + n;
	c = b + n;
	for (i = 0; i < n; i++) {
		a[i] = 0.0;
		b[i] = 2.0;
		c[i] = 1.0;
	}
	(nt ? pass_nt : pass_plain)(a, b, c, n);
	t0 = now_sec();
	for (unsigned long long l = 0; l < loops; l++)
		(nt ? pass_nt : pass_plain)(a, b, c, n);
	t = now_sec() - t0;
	printf("gbps=%.3f check=%g\n", 24.0 * (double)n * (double)loops / t / 1e9,
	       a[n / 2]);
	free(a);
	return 0;
}
