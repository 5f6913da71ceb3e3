/* collapse(n) on the inner directive: the tiers run the collapsed loops'
 * iterations as one range (transform/nested.c, inner_collapse), each
 * compared with the CPU build:
 *  1: OpenACC, collapse(2) with a reduction: na[i] x nb blocks, nb a Before
 *     local; the products go from 0 through every tier to split NLK items;
 *  2: OpenMP, collapse(3) with a max reduction: steps 2 and -3, a long long
 *     index, a continue in the innermost body;
 *  3: C89 indices (one declared outside the region, one in Before), no
 *     reduction, each iteration writes its own element;
 *  4: collapse(2) on a later stage, in an if's block;
 *  5: a triangular nest and a break: not collapsed, with a note; the first
 *     loop still runs in parallel;
 *  6: later stages over C89 indices declared outside the region: one in an
 *     if's block, one collapsed (After declares them where it runs).
 * Argument: N (outer iterations). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000;
  if (n < 0 || n > 2000000) return 2;
  /* block i: na[i] rows of NB columns; one in 997 is giant (split over several NLK items) */
  enum { NB = 40 };
  int *na = malloc(sizeof(int) * (size_t)(n + 1));
  long *off = malloc(sizeof(long) * (size_t)(n + 1));
  long tot = 0;
  for (long i = 0; i < n; i++) {
    na[i] = i % 997 == 13 ? 4000 : i % 97 == 5 ? 300 : i % 13 == 5 ? 60 : (int)(i % 4);
    off[i] = tot;
    tot += (long)na[i] * NB;
  }
  off[n] = tot;
  double *v = malloc(sizeof(double) * (size_t)(tot + 1));
  for (long k = 0; k < tot; k++) v[k] = (double)((k * 7) % 23) - 11.0;
  double *y1 = malloc(sizeof(double) * (size_t)(n + 1)), *y2 = malloc(sizeof(double) * (size_t)(n + 1));
  double *w3 = malloc(sizeof(double) * (size_t)(tot + 1)), *y4 = malloc(sizeof(double) * (size_t)(n + 1));
  double *y5 = malloc(sizeof(double) * (size_t)(n + 1)), *y6 = malloc(sizeof(double) * (size_t)(n + 1));
  double *y7 = malloc(sizeof(double) * (size_t)(n + 1));
  for (long k = 0; k < tot; k++) w3[k] = 0.0;
  int a, b;

#pragma acc data copyin(na[0:n], off[0:n+1], v[0:tot]) copyout(y1[0:n], y4[0:n], y5[0:n], y6[0:n], y7[0:n]) copy(w3[0:tot])
  {
    /* 1: a reduction over a block of na[i] x nb, nb computed in Before */
#pragma acc parallel loop present(na, off, v, y1)
    for (long i = 0; i < n; i++) {
      const double *blk = v + off[i];
      int nb = i % 11 == 3 ? 3 : NB - (int)(i % 3); /* products of 0 to 9: the parent and warp-flat tiers */
      double s = 0.0;
#pragma acc loop collapse(2) reduction(+:s)
      for (int r = 0; r < na[i]; r++)
        for (int c = 0; c < nb; c++) s += blk[r * NB + c] * (double)(c + 1);
      y1[i] = s;
    }
    // expect-in-cu: gt_ilb1, gt_ist1, gt_itc1
    // expect-in-cu: gt_fq /= gt_ctx.gt_itc1;

    /* 3: C89 indices, one from outside the region and one declared in Before; no reduction */
#pragma acc parallel loop present(na, off, v, w3) private(a)
    for (long i = 0; i < n; i++) {
      long q;
      double scale = 1.0 + (double)(i % 5);
#pragma acc loop collapse(2)
      for (a = 0; a < na[i]; a++)
        for (q = NB - 1; q >= 0; q--) w3[off[i] + a * NB + q] = v[off[i] + a * NB + q] * scale + (double)q;
    }

    /* 4: collapse(2) on stage 2, inside an if's block */
#pragma acc parallel loop present(na, off, v, y4)
    for (long i = 0; i < n; i++) {
      double s = 0.0;
#pragma acc loop reduction(+:s)
      for (int r = 0; r < na[i]; r++) s += v[off[i] + (long)r * NB];
      if (i % 3 != 1) {
        double t = 0.0;
        int half = NB / 2;
#pragma acc loop collapse(2) reduction(+:t)
        for (int r = 0; r < na[i]; r++)
          for (int c = 0; c < half; c++) t += v[off[i] + (long)r * NB + 2 * c + 1] * s;
        s = t - s;
      }
      y4[i] = s;
    }
    // expect-in-cu: gt_m.gt_ilb1 = gt_ilb1;

    /* 5: a triangular nest and a break in the innermost body: not collapsed */
#pragma acc parallel loop present(na, off, v, y5, y6)
    for (long i = 0; i < n; i++) {
      double s = 0.0, u = 0.0;
      int m = na[i] < NB ? na[i] : NB;
#pragma acc loop collapse(2) reduction(+:s)
      for (int r = 0; r < m; r++)
        for (int c = 0; c <= r; c++) s += v[off[i] + (long)r * NB + c];
      y5[i] = s;
#pragma acc loop collapse(2) reduction(+:u)
      for (int r = 0; r < na[i]; r++)
        for (int c = 0; c < NB; c++) {
          if (v[off[i] + (long)r * NB + c] > 10.5) break;
          u += v[off[i] + (long)r * NB + c];
        }
      y6[i] = u;
    }
    // expect-in-cu: is not applied (the bounds of a collapsed loop use the index of a loop around it)
    // expect-in-cu: is not applied (a 'break' ends the innermost collapsed loop early)

    /* 6: later stages over indices declared outside the region */
#pragma acc parallel loop present(na, off, v, y7)
    for (long i = 0; i < n; i++) {
      double s = 0.0;
#pragma acc loop reduction(+:s)
      for (int r = 0; r < na[i]; r++) s += v[off[i] + (long)r * NB];
      double t = 0.0;
      if (i % 4 != 2) {
#pragma acc loop reduction(+:t)
        for (a = 0; a < na[i]; a++) t += v[off[i] + (long)a * NB + 1] - s;
      }
      double u = 0.0;
#pragma acc loop collapse(2) reduction(+:u)
      for (a = 0; a < na[i]; a++)
        for (b = 0; b < 5; b++) u += v[off[i] + (long)a * NB + 2 * b] * t;
      y7[i] = u + t;
    }
  }

  /* 2: OpenMP, collapse(3), a max reduction, steps 2 and -3, a continue */
#pragma omp target teams distribute parallel for map(to: na[0:n], off[0:n+1], v[0:tot]) map(from: y2[0:n])
  for (long i = 0; i < n; i++) {
    double m = -1e300;
#pragma omp parallel for collapse(3) reduction(max:m)
    for (int r = 0; r < na[i]; r++)
      for (long long c = 0; c < (i % 5 == 0 ? 4 : NB); c += 2)
        for (int d = 9; d >= 0; d -= 3) {
          double x = v[off[i] + (long)r * NB + c] * (double)(d + 1);
          if (x < -50.0) continue;
          m = x > m ? x : m;
        }
    y2[i] = m;
  }
  // expect-in-cu: gt_itc = gt_itc0 * gt_itc1 * gt_itc2;

  double c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0;
  for (long i = 0; i < n; i++) {
    c1 += y1[i] * (double)(i % 7 + 1);
    c2 += (y2[i] < -1e299 ? -1.0 : y2[i]) * (double)(i % 5 + 1);
    c4 += y4[i];
    c5 += y5[i] * (double)(i % 3 + 1);
    c6 += y6[i];
    c7 += y7[i] * (double)(i % 4 + 1);
  }
  for (long k = 0; k < tot; k++) c3 += w3[k] * (double)(k % 11 + 1);
  printf("n %ld tot %ld: %.12g %.12g %.12g %.12g %.12g %.12g %.12g\n", n, tot, c1, c2, c3, c4, c5, c6, c7);
  free(na), free(off), free(v), free(y1), free(y2), free(w3), free(y4), free(y5), free(y6), free(y7);
  return 0;
}
// nvcc-quiet
