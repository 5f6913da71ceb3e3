/* Nested parallel loops in forms that once broke gtcc: a const pointer
 * local before the inner loop (CSR row pointer), a capture named `min`, a
 * local that shadows a capture, a firstprivate and a private scalar
 * assigned in the outer body, a context too large for the parent's
 * shared memory (24 doubles: 232 bytes x 256 threads), and an unsigned step with -= (flat loop). Rows of
 * 0..3000 entries reach every tier; values are multiples of 1/4, so every
 * sum is exact in any order. */
#include <stdio.h>
#include <stdlib.h>

static double checksum(const double *y, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * (double)(1 + i % 7);
  return s;
}

static void const_row(int n, int m, const int *rs, const float *v, double *y) {
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    const float *row = v + rs[i];
    float *const end = (float *)v + rs[i + 1];
    const float *const first = row;
    int len = (int)(end - first);
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = 0; j < len; j++) s += row[j];
    y[i] = s;
  }
}

static void named_min(int n, int m, const int *rs, const float *v, double *y, float min) {
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rs[i]; j < rs[i + 1]; j++)
      if (v[j] > min) s += v[j];
    y[i] = s;
  }
}

static void shadowing(int n, int m, const int *rs, const float *v, double *y, double scale) {
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double w = scale;
    double scale = w * (i % 4);
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rs[i]; j < rs[i + 1]; j++) s += scale * v[j];
    y[i] = s;
  }
}

static void assigned_captures(int n, int m, const int *rs, const float *v, double *y, double *z) {
  double w = 1.0, p;
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(y[0:n]) firstprivate(w)
  for (int i = 0; i < n; i++) {
    w = 1.0 + i % 4;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rs[i]; j < rs[i + 1]; j++) s += w * v[j];
    y[i] = s + w;
  }
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(z[0:n]) private(p)
  for (int i = 0; i < n; i++) {
    p = 0.25 * (i % 3);
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rs[i]; j < rs[i + 1]; j++) s += p * v[j];
    z[i] = s - p;
  }
}

static void big_context(int n, int m, const int *rs, const float *v, double *y) {
#pragma acc parallel loop copyin(rs[0:n+1], v[0:m]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double a = i % 2, b = i % 3, c = i % 5, d = i % 7, e = 0.25, f = 0.5, g = 1.0, h = 2.0;
    double a2 = a + 1, b2 = b + 1, c2 = c + 1, d2 = d + 1, e2 = e + 1, f2 = f + 1, g2 = g + 1, h2 = h + 1;
    double a3 = a2 * 2, b3 = b2 * 2, c3 = c2 * 2, d3 = d2 * 2, e3 = e2 * 2, f3 = f2 * 2, g3 = g2 * 2;
    double s = 0.0;
#pragma acc loop reduction(+:s)
    for (int j = rs[i]; j < rs[i + 1]; j++)
      s += (a + b + c + d + e + f + g + h + a2 + b2 + c2 + d2 + e2 + f2 + g2 + h2 + a3 + b3 + c3 + d3 + e3 + f3 + g3) *
           v[j];
    y[i] = s;
  }
}

int main(void) {
  const int n = 20000;
  int *rs = malloc((n + 1) * sizeof *rs);
  rs[0] = 0;
  for (int i = 0; i < n; i++) {
    int len = i % 97 == 0 ? 3000 : i % 5 == 0 ? 40 : i % 3 == 0 ? 20 : i % 4; /* warp/NLK, warp, flat, inline */
    rs[i + 1] = rs[i] + len;
  }
  const int m = rs[n];
  float *v = malloc((m > 0 ? m : 1) * sizeof *v);
  for (int j = 0; j < m; j++) v[j] = 0.25f * (float)(j % 9);
  double *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);

  const_row(n, m, rs, v, y);
  printf("const row pointer: %.2f\n", checksum(y, n));
  named_min(n, m, rs, v, y, 1.0f);
  printf("capture named min: %.2f\n", checksum(y, n));
  shadowing(n, m, rs, v, y, 0.5);
  printf("local shadows capture: %.2f\n", checksum(y, n));
  assigned_captures(n, m, rs, v, y, z);
  printf("firstprivate assigned: %.2f, private assigned: %.2f\n", checksum(y, n), checksum(z, n));
  big_context(n, m, rs, v, y);
  printf("large context: %.2f\n", checksum(y, n));

  static double out[1000];
  unsigned st = 3;
  int cnt = 1000;
#pragma acc parallel loop copy(out[0:cnt])
  for (int i = cnt - 1; i >= 0; i -= st) out[i] = i;
  double t = 0;
  for (int i = 0; i < cnt; i++) t += out[i];
  printf("unsigned step -=: %.0f\n", t);
  free(rs), free(v), free(y), free(z);
  return 0;
}
