/* Device addresses in host code: `acc host_data use_device(...)` and
 * `omp target data use_device_ptr(...) / use_device_addr(...)` hand the
 * device copies' addresses to routines that take device pointers, as a
 * CUDA library would (here: constructs with deviceptr / is_device_ptr,
 * one of them a nested parallel loop). Were a host address passed on, the
 * GPU would fault; were the device copy missed, the sums would differ from
 * the CPU build's. Also: `if_present` and `if(0)` keep host addresses, an
 * array (not a pointer) in use_device, and data directives stacked on one
 * statement (their exits in reverse order). */
#include <stdio.h>
#include <stdlib.h>

/* "library" routines: their arguments are device addresses */
static void scale_dev(int n, double a, double *y) {
#pragma acc parallel loop deviceptr(y)
  for (int i = 0; i < n; i++) y[i] *= a;
}

static void spmv_dev(int n, const int *rp, const int *col, const double *val, const double *x, double *y) {
#pragma acc parallel loop deviceptr(rp, col, val, x, y) // expect-in-cu: nested parallel loop (CollectiveDP
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * x[col[j]];
    y[i] = s;
  }
}

static void axpy_omp(int n, double a, const double *x, double *y) {
#pragma omp target teams distribute parallel for is_device_ptr(x, y)
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

/* host code between the calls only passes the addresses on */
static double *pick(double *p) { return p; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
  if (n < 4) n = 4;
  /* rows of 1..4000 entries: short ones inline, long ones in the next-level kernel */
  int *rp = malloc(sizeof(int) * ((size_t)n + 1));
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + (i % 97 == 0 ? 4000 : 1 + i % 13);
  int nnz = rp[n];
  int *col = malloc(sizeof(int) * (size_t)nnz);
  double *val = malloc(sizeof(double) * (size_t)nnz);
  for (int k = 0; k < nnz; k++) col[k] = (int)((k * 2654435761u) % (unsigned)n), val[k] = (double)(k % 11) - 5.0;
  double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
  double *w = malloc(sizeof(double) * (size_t)n), *unmapped = malloc(sizeof(double) * 16);
  double z[1000];
  for (int i = 0; i < n; i++) x[i] = (double)(i % 7) - 3.0, y[i] = 0.0, w[i] = 1.0;
  for (int i = 0; i < 1000; i++) z[i] = (double)i;
  for (int i = 0; i < 16; i++) unmapped[i] = 1.0;

#pragma acc data copyin(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copyout(y[0:n]) copy(z)
  {
#pragma acc host_data use_device(rp, col, val, x, y)
    spmv_dev(n, rp, col, val, x, y); /* y = A x, on the device */
#pragma acc host_data use_device(y, z)
    {
      scale_dev(n, 3.0, pick(y)); /* y = 3 A x */
      scale_dev(1000, 2.0, z);    /* an array: its device copy */
    }
#pragma acc host_data use_device(unmapped) if_present
    scale_dev(0, 2.0, unmapped);  /* not on the device: the host address, never dereferenced */
#pragma acc host_data use_device(x) if(n < 0)
    {
      double h = 0.0;
      for (int i = 0; i < n; i++) h += x[i]; /* if(0): the host's x */
      printf("host x sum %.1f\n", h);
    }
  }

#pragma omp target data map(to: x[0:n]) map(tofrom: w[0:n])
#pragma omp target data use_device_ptr(x) use_device_addr(w)
  axpy_omp(n, 0.5, x, w); /* w = 1 + x / 2 */

  /* stacked data directives on one statement, around a loop */
#pragma acc data copyin(x[0:n])
#pragma acc data copy(w[0:n])
#pragma acc parallel loop
  for (int i = 0; i < n; i++) w[i] += x[i];

  double sy = 0.0, sw = 0.0, sz = 0.0;
  for (int i = 0; i < n; i++) sy += y[i] * (double)(1 + i % 5), sw += w[i];
  for (int i = 0; i < 1000; i++) sz += z[i];
  printf("nnz %d y %.17g w %.17g z %.1f unmapped %.1f\n", nnz, sy, sw, sz, unmapped[0]);
  free(rp), free(col), free(val), free(x), free(y), free(w), free(unmapped);
  return 0;
}
