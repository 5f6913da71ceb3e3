/* The gtcc side of the SpMV benchmark: y = A*x for a CSR matrix (fp64
 * values, int32 indices), one row per outer iteration and an inner
 * reduction over the row: the nested loop gtcc lowers to CollectiveDP.
 *
 * The arrays must already be mapped by the caller (gtrt_map_enter):
 * present() keeps them on the device across calls.
 *
 * bench/spmv/CMakeLists.txt compiles this file once per --cdp mode, naming
 * the function by a macro:
 *   gtcc -O3 -c --cdp=MODE -DSPMV_FN=spmv_MODE spmv_gtcc.c -o spmv_MODE.o
 * (kernel names carry a hash of the macros, so the five objects link together). */

#ifndef SPMV_FN
#define SPMV_FN spmv_gtcc
#endif

void SPMV_FN(int n, int m, int nnz, const int *restrict rp, const int *restrict col, const double *restrict val,
             const double *restrict x, double *restrict y);

void SPMV_FN(int n, int m, int nnz, const int *restrict rp, const int *restrict col, const double *restrict val,
               const double *restrict x, double *restrict y) {
  (void)m, (void)nnz; /* used only by the data clauses */
#pragma acc parallel loop present(rp[0:n+1], col[0:nnz], val[0:nnz], x[0:m], y[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
#pragma acc loop reduction(+:sum)
    for (int j = rp[i]; j < rp[i + 1]; j++)
      sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
