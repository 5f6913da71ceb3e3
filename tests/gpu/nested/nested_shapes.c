/* Nested parallel loops of other shapes than SpMV, for every CollectiveDP
 * mode (built once per --cdp mode, compared with the plain C build):
 *   - outer loop with a lower bound and step 2, inner loop counting down by 3,
 *     Before locals used in the bounds and the body, After writing two arrays;
 *   - several reduction operators (*, max, min, &, |, ^ on long, int and float);
 *   - OpenMP nesting with a private variable and `continue` in the inner body;
 *   - an inner loop without reduction writing disjoint elements;
 *   - few outer iterations with very long inner loops (several NLK blocks each).
 * Lengths come from a fixed LCG: short, medium and long inner loops mix.
 * usage: nested_shapes [N]   (outer size, default 20000) */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long lcg(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 33;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  if (n < 0) n = 0;
  int *len = malloc(sizeof(int) * (size_t)(n + 1));
  unsigned long long seed = 7;
  long total = 0;
  for (int i = 0; i < n; i++) {
    unsigned long long r = lcg(&seed) % 1000;
    len[i] = r < 700 ? (int)(r % 12) : r < 950 ? 33 + (int)(r % 900) : 3000 + (int)(lcg(&seed) % 90000);
    total += len[i];
  }
  int m = (int)(total > 0 ? total : 1);
  float *v = malloc(sizeof(float) * (size_t)m);
  for (int k = 0; k < m; k++) v[k] = 0.5f + (float)(lcg(&seed) % 1000) / 1000.0f;
  int *start = malloc(sizeof(int) * (size_t)(n + 1));
  start[0] = 0;
  for (int i = 0; i < n; i++) start[i + 1] = start[i] + len[i];

  /* 1: outer from 1 step 2, inner down by 3, Before locals, two outputs */
  double *out1 = calloc((size_t)(n + 1), sizeof(double));
  long *out2 = calloc((size_t)(n + 1), sizeof(long));
  #pragma acc parallel loop copyin(start[0:n+1], v[0:m]) copy(out1[0:n+1], out2[0:n+1])
  for (int i = 1; i < n; i += 2) {
    const int lo = start[i], hi = start[i + 1];
    double w = 1.0 + (i % 7);
    double acc = 0.0;
    long cnt = 0;
    #pragma acc loop reduction(+:acc) reduction(+:cnt)
    for (int k = hi - 1; k >= lo; k -= 3) {
      acc += w * v[k];
      cnt += 1;
    }
    out1[i] = acc;
    out2[i] = cnt + lo % 5;
  }

  /* 2: other operators */
  double *prod = calloc((size_t)(n + 1), sizeof(double));
  float *mx = calloc((size_t)(n + 1), sizeof(float)), *mn = calloc((size_t)(n + 1), sizeof(float));
  int *bits = calloc((size_t)(n + 1), sizeof(int));
  #pragma acc parallel loop copyin(start[0:n+1], v[0:m]) copyout(prod[0:n], mx[0:n], mn[0:n], bits[0:n])
  for (int i = 0; i < n; i++) {
    double p = 1.0;
    float hi_v = -1.0f, lo_v = 10.0f;
    int band = ~0, bor = 0, bxor = 0;
    #pragma acc loop reduction(*:p) reduction(max:hi_v) reduction(min:lo_v) reduction(&:band) reduction(|:bor) reduction(^:bxor)
    for (int k = start[i]; k < start[i + 1]; k++) {
      p *= 1.0 + (v[k] - 1.0) * 1e-4;
      hi_v = hi_v > v[k] ? hi_v : v[k];
      lo_v = lo_v < v[k] ? lo_v : v[k];
      int q = (int)(v[k] * 1000.0f);
      band &= q | 0x100;
      bor |= q & 0xff;
      bxor ^= q;
    }
    prod[i] = p;
    mx[i] = hi_v;
    mn[i] = lo_v;
    bits[i] = band ^ (bor << 12) ^ (bxor << 3);
  }

  /* 3: OpenMP nesting, private temporary, continue in the inner body */
  double *out3 = calloc((size_t)(n + 1), sizeof(double));
  #pragma omp target teams distribute parallel for map(to: start[0:n+1], v[0:m]) map(from: out3[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0, t;
    #pragma omp parallel for reduction(+:s) private(t)
    for (int k = start[i]; k < start[i + 1]; k++) {
      if (k % 4 == 1) continue;
      t = v[k] * v[k];
      s += t;
    }
    out3[i] = s;
  }

  /* 4: no reduction: each inner iteration writes its own element */
  float *scaled = calloc((size_t)m, sizeof(float));
  #pragma acc parallel loop copyin(start[0:n+1], v[0:m]) copyout(scaled[0:m])
  for (int i = 0; i < n; i++) {
    float f = 1.0f / (1.0f + (float)(i % 13));
    #pragma acc loop
    for (int k = start[i]; k < start[i + 1]; k++) scaled[k] = v[k] * f;
  }

  /* 5: a handful of outer iterations with very long inner loops */
  int few = n < 5 ? n : 5;
  double *out5 = calloc(6, sizeof(double));
  int big = 300000;
  #pragma acc parallel loop copyin(v[0:m]) copyout(out5[0:few])
  for (int i = 0; i < few; i++) {
    double s = 0.0;
    int reach = big * (i + 1);
    #pragma acc loop reduction(+:s)
    for (int k = 0; k < reach; k++) s += v[(k * 7 + i) % m] * 0.5;
    out5[i] = s;
  }

  double c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0;
  long cl = 0;
  unsigned long long cb = 0;
  for (int i = 0; i < n; i++) {
    c1 += out1[i] * (1 + i % 3);
    cl += out2[i] * (1 + i % 5);
    c2 += prod[i];
    c3 += mx[i] + 2.0 * mn[i];
    cb = cb * 31 + (unsigned)bits[i];
    c4 += out3[i] * (1 + i % 2);
  }
  for (int k = 0; k < m; k++) c5 += scaled[k] * (1 + k % 3);
  for (int i = 0; i < few; i++) c6 += out5[i] * (i + 1);
  printf("n %d\nm %d\nsum1 %.10g\ncount %ld\nprod %.10g\nmaxmin %.10g\nbits %llu\nomp %.10g\nscaled %.10g\nfew %.10g\n", n,
         m, c1, cl, c2, c3, cb, c4, c5, c6);
  return 0;
}
