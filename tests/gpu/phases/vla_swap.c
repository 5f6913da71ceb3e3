/* Pointers to variable-length arrays declared in a task region and swapped
 * by its host code: each task must see the pair as it was when the task was
 * created (the snapshot holds the device address and the row length; gtcc
 * once rejected them). A 2D blocked Jacobi (5-point) with depend clauses
 * only, no taskwait: the time steps overlap through individual dependences.
 * Grid: (NB+2)*B x (MB+2)*B, guard blocks around; interior blocks 1..NB, 1..MB.
 *
 *   vla_swap [NB [MB [B [STEPS]]]]     (defaults 6 5 8 20)
 *
 * Prints checksums of the final grid. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 6, mb = argc > 2 ? atoi(argv[2]) : 5;
  int B = argc > 3 ? atoi(argv[3]) : 8, steps = argc > 4 ? atoi(argv[4]) : 20;
  if (argc > 5 || nb < 0 || mb < 0 || B < 1 || steps < 0) {
    fprintf(stderr, "usage: vla_swap [NB [MB [B [STEPS]]]]\n");
    return 2;
  }
  int R = (nb + 2) * B, C = (mb + 2) * B;
  double (*g0)[C] = malloc(sizeof(double) * R * C), (*g1)[C] = malloc(sizeof(double) * R * C);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int border = i < B || j < B || i >= R - B || j >= C - B;
      g0[i][j] = g1[i][j] = border ? (double)((i * 3 + j) % 7) * 0.25 : (double)((i * j) % 13) * 0.01;
    }
#pragma omp target data map(tofrom: g0[0:R], g1[0:R])
#pragma omp parallel
#pragma omp single
  {
    double (*cur)[C] = g0, (*nxt)[C] = g1;
    for (int t = 0; t < steps; t++) {
      for (int bi = 1; bi <= nb; bi++)
        for (int bj = 1; bj <= mb; bj++) {
#pragma omp task depend(in: cur[bi*B][bj*B], cur[(bi-1)*B][bj*B], cur[(bi+1)*B][bj*B], cur[bi*B][(bj-1)*B], cur[bi*B][(bj+1)*B]) depend(out: nxt[bi*B][bj*B])
          {
            for (int i = bi * B; i < (bi + 1) * B; i++)
              for (int j = bj * B; j < (bj + 1) * B; j++)
                nxt[i][j] = 0.2 * (cur[i][j] + cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1] + cur[i][j + 1]) + 0.001 * t;
          }
        }
      double (*tmp)[C] = cur; cur = nxt; nxt = tmp;
    }
  }
  double (*res)[C] = steps % 2 ? g1 : g0;
  double s = 0, w = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) s += res[i][j], w += res[i][j] * ((i * 5 + j) % 9);
  printf("vla_swap %d %d %d %d\nsum %.10g w %.10g c %.10g %.10g\n", nb, mb, B, steps, s, w, res[R / 2][C / 2], res[B][B]);
  free(g0); free(g1);
  return 0;
}
