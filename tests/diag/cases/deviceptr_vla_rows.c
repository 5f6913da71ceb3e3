// expect: 8:37: error: 'A' in 'deviceptr' points to rows of run-time length (double (*)[m]), which gtcc does not take as a device pointer
// only-expected
/* deviceptr of a pointer to rows of run-time length: gtcc passes such
 * pointers as views built from a mapped section, and a device address has
 * none (nvcc failed on the generated code before this error). A flat
 * pointer works (tests/emit/cases/acc_host_data.c). */
void add_one(int n, int m, double (*A)[m]) {
#pragma acc parallel loop deviceptr(A)
  for (int i = 0; i < n; i++) A[i][0] += 1.0;
}
