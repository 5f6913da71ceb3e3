/* acc enter data / exit data: unstructured lifetimes across functions. */
#include <stdio.h>
#include <stdlib.h>

static void setup(double *x, double *y, int n) {
#pragma acc enter data copyin(x[0:n]) create(y[0:n])
}

static void compute(const double *x, double *y, int n, double s) {
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = s * x[i] + (double)(i % 3);
}

static void teardown(double *x, double *y, int n) {
#pragma acc exit data copyout(y[0:n]) delete(x[0:n])
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5000;
  double *x = malloc(sizeof *x * (size_t)(n ? n : 1));
  double *y = malloc(sizeof *y * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    x[i] = 1.0 / (1.0 + i);
    y[i] = 0.0;
  }
  setup(x, y, n);
  compute(x, y, n, 3.0);
  compute(x, y, n, 4.0); /* second launch on the same device data */
  teardown(x, y, n);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += y[i];
  printf("n %d\n", n);
  printf("y.sum %.10g\n", s);
  if (n > 0)
    printf("y[n-1] %.10g\n", y[n - 1]);
  free(x);
  free(y);
  return 0;
}
