/* private and firstprivate scalars and a private temporary. */
#include <stdio.h>

int main(void) {
  enum { N = 4096 };
  static float x[N], y[N];
  int n = N;
  float scale = 1.5f;
  int offset = 7;
  float tmp = -1.0f; /* private: its value after the loop is unspecified, not printed */
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 100);

#pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n]) private(tmp) firstprivate(scale, offset)
  for (int i = 0; i < n; i++) {
    tmp = x[i] * scale;
    y[i] = tmp + (float)offset;
  }

  int k = 0;
#pragma omp target teams distribute parallel for map(tofrom: y[0:n]) private(k) firstprivate(offset)
  for (int i = 0; i < n; i++) {
    k = i % offset;
    y[i] += (float)k;
  }

  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += y[i];
  printf("sum %.10g\n", s);
  printf("y[5] %.10g\n", (double)y[5]);
  printf("y[n-1] %.10g\n", (double)y[n - 1]);
  return 0;
}
