/*
 * interval.c - Hodges-Lehmann shift with its Mann-Whitney interval (see
 * interval.h).
 *
 * The exact law of the Mann-Whitney count U for m and n values is the
 * coefficient list of the Gaussian binomial [m+n choose m] in q, built as
 * the product over i = 1..m of (1 - q^(n+i)) / (1 - q^i): multiply, then
 * divide exactly (a running sum).  Counts reach C(100, 50) ~ 1e29 at the
 * exact limit, well inside a double's range and precision for a 2.5%
 * tail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/interval.h"
#include "util/row.h"
#include "util/stats.h"

#define Z975	1.959963984540054	/* the normal's 97.5% quantile */

/* P(U <= u) for u = 0..m*n into cdf (m * n + 1 entries). */
static int mw_cdf(size_t m, size_t n, double *cdf)
{
	size_t top = m * n, deg = 0;
	double *a = calloc(top + m + 1, sizeof(*a)), sum = 0;

	if (!a)
		return -1;
	a[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		size_t j = n + i;

		for (size_t k = deg + j; k >= j; k--)
			a[k] -= a[k - j];
		deg += j;
		for (size_t k = i; k <= deg - i; k++)
			a[k] += a[k - i];
		for (size_t k = deg - i + 1; k <= deg; k++)
			a[k] = 0;	/* the exact quotient ends here */
		deg -= i;
	}
	for (size_t u = 0; u <= top; u++) {
		sum += a[u];
		cdf[u] = sum;
	}
	for (size_t u = 0; u <= top; u++)
		cdf[u] /= sum;
	free(a);
	return 0;
}

static unsigned rank_exact(size_t m, size_t n, double *level)
{
	size_t top = m * n;
	double *cdf = malloc((top + 1) * sizeof(*cdf));
	unsigned k = 0;

	*level = 0;
	if (!cdf || mw_cdf(m, n, cdf)) {
		free(cdf);
		return 0;
	}
	/* largest k with P(U <= k - 1) <= 2.5% */
	while (k <= top && cdf[k] <= (1 - INTERVAL_LEVEL) / 2 + 1e-12)
		k++;
	if (k)
		*level = 1 - 2 * cdf[k - 1];
	free(cdf);
	return k;
}

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/* U is near normal, mean m n / 2, variance m n (m + n + 1) / 12; with the
 * continuity correction P(U <= k - 1) ~ Phi((k - 1/2 - mean) / sd). */
static unsigned rank_normal(size_t m, size_t n, double *level)
{
	double mn = (double)m * (double)n;
	double sd = sqrt(mn * (double)(m + n + 1) / 12.0);
	double k = floor(mn / 2 - Z975 * sd + 0.5);

	if (k < 1) {
		*level = 0;
		return 0;
	}
	*level = 1 - 2 * normal_cdf((k - 0.5 - mn / 2) / sd);
	return (unsigned)k;
}

unsigned interval_rank(size_t m, size_t n, double *level)
{
	*level = 0;
	if (!m || !n)
		return 0;
	if (m <= INTERVAL_EXACT_MAX && n <= INTERVAL_EXACT_MAX)
		return rank_exact(m, n, level);
	return rank_normal(m, n, level);
}

unsigned interval_min_repeats(void)
{
	double level;
	unsigned r = 1;

	while (!interval_rank(r, r, &level))
		r++;
	return r;
}

struct interval interval_shift(const double *x, size_t m, const double *y,
			       size_t n)
{
	struct interval iv = { .status = INTERVAL_TOO_FEW };
	unsigned k = interval_rank(m, n, &iv.level);
	size_t nd = m * n;
	double *d;

	if (!k) {
		iv.need = interval_min_repeats();
		return iv;
	}
	d = malloc(nd * sizeof(*d));
	if (!d) {
		iv.status = INTERVAL_BAD;
		return iv;
	}
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			d[i * n + j] = y[j] - x[i];
	iv.est = stat_summarise(d, nd).median;	/* sorts d */
	iv.lo = d[k - 1];
	iv.hi = d[nd - k];
	iv.status = INTERVAL_OK;
	free(d);
	return iv;
}

/* The rank k of the median's interval for n values, 0 when none reaches
 * INTERVAL_LEVEL; *level gets its coverage, 1 - 2 P(B <= k - 1). */
static unsigned median_rank(size_t n, double *level)
{
	double p = ldexp(1.0, -(int)fmin((double)n, 1000.0)), cdf = 0;
	unsigned k = 0;

	*level = 0;
	if (n > 1000)		/* the normal law: B ~ N(n/2, n/4) */
		return (unsigned)floor((double)n / 2 -
				       Z975 * sqrt((double)n) / 2);
	/* p walks P(B = j) = C(n, j) / 2^n upward */
	while (k < n && cdf + p <= (1 - INTERVAL_LEVEL) / 2 + 1e-12) {
		cdf += p;
		p = p * (double)(n - k) / (double)(k + 1);
		k++;
	}
	if (k)
		*level = 1 - 2 * cdf;
	return k;
}

unsigned interval_median_min(void)
{
	double level;
	unsigned n = 1;

	while (!median_rank(n, &level))
		n++;
	return n;
}

struct interval interval_median(const double *sorted, size_t n)
{
	struct interval iv = { .status = INTERVAL_TOO_FEW };
	unsigned k = median_rank(n, &iv.level);

	if (n)
		iv.est = n % 2 ? sorted[n / 2]
			       : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	if (!k) {
		iv.need = interval_median_min();
		return iv;
	}
	if (n > 1000)
		iv.level = INTERVAL_LEVEL;
	iv.lo = sorted[k - 1];
	iv.hi = sorted[n - k];
	iv.status = INTERVAL_OK;
	return iv;
}

/* log(cost) of each value into out; false on a value <= 0. */
static bool log_costs(const double *v, size_t n, bool lower_is_better,
		      double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return false;
		out[i] = lower_is_better ? log(v[i]) : -log(v[i]);
	}
	return true;
}

static double pct(double shift)
{
	return 100.0 * expm1(shift);
}

struct interval interval_slowdown(const double *alone, size_t m,
				  const double *loaded, size_t n,
				  bool lower_is_better)
{
	struct interval iv = { .status = INTERVAL_BAD };
	double *la = malloc((m + 1) * sizeof(*la));
	double *ll = malloc((n + 1) * sizeof(*ll));

	if (la && ll && log_costs(alone, m, lower_is_better, la) &&
	    log_costs(loaded, n, lower_is_better, ll)) {
		iv = interval_shift(la, m, ll, n);
		if (iv.status == INTERVAL_OK) {
			iv.est = fig_fixed(pct(iv.est), INTERVAL_DECIMALS);
			iv.lo = fig_fixed(pct(iv.lo), INTERVAL_DECIMALS);
			iv.hi = fig_fixed(pct(iv.hi), INTERVAL_DECIMALS);
		}
	}
	free(la);
	free(ll);
	return iv;
}

int interval_decimals(const struct interval *iv)
{
	double near = fmin(fabs(iv->lo), fabs(iv->hi));

	return fmax(fabs(iv->lo), fabs(iv->hi)) < 1 || (near > 0 && near < 0.05)
	       ? 2 : 1;
}

void interval_verdict(const struct interval *iv, const char *worse,
		      const char *better, const char *none, char *buf,
		      size_t len)
{
	double bound;
	int dec;

	if (iv->status == INTERVAL_TOO_FEW) {
		snprintf(buf, len, "too few repeats for an interval (need "
			 "repeat=%u)", iv->need);
		return;
	}
	if (iv->status != INTERVAL_OK) {
		snprintf(buf, len, "no interval (a value was not positive)");
		return;
	}
	bound = fmax(fabs(iv->lo), fabs(iv->hi));
	dec = interval_decimals(iv);
	if (iv->lo > 0)
		snprintf(buf, len, "%s by %.*f%% (95%% CI %.*f..%.*f%%)", worse,
			 dec, iv->est, dec, iv->lo, dec, iv->hi);
	else if (iv->hi < 0)
		snprintf(buf, len, "%s by %.*f%% (95%% CI %.*f..%.*f%%)",
			 better, dec, -iv->est, dec, -iv->hi, dec, -iv->lo);
	else
		snprintf(buf, len, "%s: smaller than +-%.*f%% at 95%%", none,
			 dec, bound);
}
