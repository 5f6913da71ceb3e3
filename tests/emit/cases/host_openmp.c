/* Host OpenMP that gtcc does not lower is kept for the host compiler:
 * critical (named too), sections, masked, parallel master, flush,
 * threadprivate, taskyield, in a CPU reference beside the offloaded code.
 * Task regions may also be created by `omp masked` and by the combined
 * `omp parallel master` / `omp parallel masked` (one thread creates the
 * tasks, as with single): a wavefront of dependent tasks and a phased sweep
 * (taskwait between steps) run as GPU megakernels. Compared with the CPU
 * build; the reference sums are exact. */
#include <stdio.h>
#include <stdlib.h>

static int calls;
#pragma omp threadprivate(calls)

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int nb = 256;
  if (n < nb) n = nb;
  int bs = n / nb;
  double *a = malloc(sizeof(double) * (size_t)n), *w = malloc(sizeof(double) * (size_t)nb);
  for (int i = 0; i < n; i++) a[i] = (double)(i % 97) / 4.0;

  /* host reference with host-only directives */
  double ref = 0.0, lo = 0.0, hi = 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical(ref_sum)
    ref += a[i];
  }
#pragma omp parallel sections
  {
#pragma omp section
    for (int i = 0; i < n / 2; i++) lo += a[i];
#pragma omp section
    for (int i = n / 2; i < n; i++) hi += a[i];
  }
#pragma omp parallel
  {
    /* (no tasks here: the masked block runs on the host) */
    calls += 0;
#pragma omp masked
    calls++;
#pragma omp flush
#pragma omp taskyield
  }
  printf("host: ref %.2f lo+hi %.2f calls %d\n", ref, lo + hi, calls);

  /* offloaded: a wavefront of block tasks created under omp masked */
  for (int b = 0; b < nb; b++) w[b] = 0.0;
#pragma omp target data map(tofrom: a[0:n], w[0:nb])
  {
#pragma omp parallel
#pragma omp masked
    for (int b = 1; b < nb; b++) {
#pragma omp task depend(in: w[b-1]) depend(out: w[b])
      {
        double s = w[b - 1];
        for (int i = b * bs; i < (b + 1) * bs; i++) s += a[i];
        w[b] = s / 2.0;
      }
    }

    /* a phased sweep created by omp parallel master */
#pragma omp parallel master
    for (int t = 0; t < 4; t++) {
      for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: a[b*bs])
        for (int i = b * bs; i < (b + 1) * bs; i++) a[i] = a[i] * 0.5 + (double)t;
      }
#pragma omp taskwait
    }
  }
  double sw = 0.0, sa = 0.0;
  for (int b = 0; b < nb; b++) sw += w[b];
  for (int i = 0; i < n; i++) sa += a[i];
  printf("tasks: w[nb-1] %.6f sum w %.6f sum a %.4f\n", w[nb - 1], sw, sa);
  free(a), free(w);
  return 0;
}
