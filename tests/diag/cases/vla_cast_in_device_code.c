// expect: 11:34: error: the type 'double (*)[m]' has a run-time array size, which CUDA device code does not have
// expect: 18:49: error: the type 'const double (*)[m]' has a run-time array size
// only-expected
/* A cast to a pointer to a variable-length array in device code: nvcc
 * rejected the generated code ("expression must have a constant value").
 * In host code and with a constant size it is fine. */
#define M 8
void f(int n, int m, double *buf) {
#pragma acc parallel loop copy(buf[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) ((double (*)[m])buf)[i][j] += 1.0;
#pragma acc parallel loop copy(buf[0:n*M])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < M; j++) ((double (*)[M])buf)[i][j] += 1.0;
  double s = 0;
  for (int i = 0; i < n; i++) s += ((double (*)[m])buf)[i][0];
#pragma acc parallel loop copy(buf[0:n*m]) firstprivate(s)
  for (int i = 0; i < n; i++) buf[i * m] = s + ((const double (*)[m])buf)[i][1];
}
