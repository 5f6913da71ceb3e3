/* if clauses: the region runs on the device only when the condition holds,
 * else on the host; both must give the same results. OpenMP's modifiers:
 * if(target: c) is the same; if(parallel: c) and if(simd: c) on a combined
 * target construct only limit the threads, so gtcc leaves them out. */
#include <stdio.h>

static double run(int n, double *v) {
  double s = 0.0;
#pragma acc parallel loop if(n > 100) copy(v[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) {
    v[i] = v[i] * 2.0 + 1.0;
    s += v[i];
  }
#pragma omp target teams distribute parallel for if(n > 100) map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] -= 0.5;
#pragma omp target teams distribute parallel for simd if(target: n > 100) if(parallel: n > 500) if(simd: n > 9) \
    map(tofrom: v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 0.75 + (double)(i % 3);
  return s;
}

int main(void) {
  static double v[1000];
  for (int i = 0; i < 1000; i++)
    v[i] = (double)i;
  double s1 = run(50, v);   /* host */
  double s2 = run(1000, v); /* device */
  double t = 0.0;
  for (int i = 0; i < 1000; i++)
    t += v[i];
  printf("s1 %.10g\ns2 %.10g\nt %.10g\n", s1, s2, t);
  return 0;
}
