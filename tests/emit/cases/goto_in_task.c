/* A goto to a label inside the same task body, in a one-loop task region
 * and in a phased region inside `omp target data` (gtcc rejected both: "goto
 * out of an 'omp task' body", "would skip its end"). Each task runs a
 * recurrence along its block with a backward goto. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 400, bs = 256, n = nb * bs;
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  if (!x || !y) return 1;
  for (int i = 0; i < n; i++) x[i] = y[i] = (double)(i % 17) * 0.125;

#pragma omp target parallel map(tofrom: x[0:n])
#pragma omp single
  for (int b = 1; b < nb; b++) {
#pragma omp task depend(in: x[(b - 1) * bs]) depend(inout: x[b * bs])
    {
      int i = b * bs;
    again:
      x[i] += 0.5 * x[i - bs];
      if (++i < (b + 1) * bs) goto again;
    }
  }

#pragma omp target data map(tofrom: y[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 3; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: y[b * bs])
      {
        int i = b * bs;
      step:
        y[i] = 0.75 * y[i] + 0.125 * t;
        if (++i < (b + 1) * bs) goto step;
      }
    }
#pragma omp taskwait
  }

  double sx = 0, sy = 0;
  for (int i = 0; i < n; i++) sx += x[i] * (double)(i % 7 + 1), sy += y[i] * (double)(i % 5 + 1);
  printf("goto_in_task x %.15e y %.15e x[n-1] %.15e\n", sx, sy, x[n - 1]);
  free(x), free(y);
  return 0;
}
