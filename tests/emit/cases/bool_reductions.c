/* Reductions on _Bool and stdbool's bool variables (nvcc once rejected the
 * runtime's host fold of bool partials: std::vector<bool> packs bits):
 * - a flat loop with && || & | ^ max min + * on _Bool, over data where
 *   each result depends on a few elements far apart;
 * - the same operators in the inner loop of a nested loop (CollectiveDP:
 *   some rows long enough for the next-level kernel);
 * - OpenMP target teams distribute parallel for reduction(||, &&).
 * Compared with the CPU build. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 300000;
  int *a = malloc(sizeof(int) * (size_t)n);
  unsigned char *row = malloc((size_t)n);
  if (!a || !row) return 1;
  for (int i = 0; i < n; i++) a[i] = (int)(((unsigned)i * 2654435761u) >> 7) % 1000;
  a[n / 3] = 1000, a[2 * n / 3] = -1; /* the only values outside [0, 1000) */

  _Bool all_lt = 1, any_big = 0, band = 1, bor = 0, bxor = 0, bmax = 0, bmin = 1, bsum = 0, bprod = 1;
#pragma acc parallel loop copyin(a[0:n]) \
    reduction(&&:all_lt) reduction(||:any_big) reduction(&:band) reduction(|:bor) reduction(^:bxor) \
    reduction(max:bmax) reduction(min:bmin) reduction(+:bsum) reduction(*:bprod)
  for (int i = 0; i < n; i++) {
    all_lt = all_lt && a[i] < 1000;
    any_big = any_big || a[i] >= 1000;
    band &= a[i] >= 0;
    bor |= a[i] < 0;
    bxor ^= a[i] == 7;
    bmax = bmax > (a[i] == 999) ? bmax : (a[i] == 999);
    bmin = bmin < (a[i] != 3) ? bmin : (a[i] != 3);
    bsum += a[i] == 1000;
    bprod *= a[i] != -1;
  }
  printf("flat %d %d %d %d %d %d %d %d %d\n", all_lt, any_big, band, bor, bxor, bmax, bmin, bsum, bprod);

  /* rows of 1 to 5000 elements: flags per row */
  int rows = n / 100;
  int *rp = malloc(sizeof(int) * ((size_t)rows + 1));
  if (!rp) return 1;
  rp[0] = 0;
  for (int r = 0; r < rows; r++) {
    int len = r % 97 == 0 ? 5000 : 1 + r % 60;
    rp[r + 1] = rp[r] + len < n ? rp[r] + len : n;
  }
#pragma acc parallel loop copyin(a[0:n], rp[0:rows + 1]) copyout(row[0:rows])
  for (int r = 0; r < rows; r++) {
    bool has7 = false, all_even = true, odd_sevens = false;
#pragma acc loop reduction(||:has7) reduction(&&:all_even) reduction(^:odd_sevens)
    for (int j = rp[r]; j < rp[r + 1]; j++) {
      has7 = has7 || a[j] % 10 == 7;
      all_even = all_even && a[j] % 2 == 0;
      odd_sevens ^= a[j] % 10 == 7;
    }
    row[r] = (unsigned char)(has7 * 4 + all_even * 2 + odd_sevens);
  }
  long hist[8] = {0};
  for (int r = 0; r < rows; r++) hist[row[r]] += r % 5 + 1;
  printf("rows");
  for (int k = 0; k < 8; k++) printf(" %ld", hist[k]);
  printf("\n");

  bool seen = false, every = true;
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(||:seen) reduction(&&:every)
  for (int i = 0; i < n; i++) {
    seen = seen || a[i] == 500;
    every = every && a[i] != 501;
  }
  printf("omp %d %d\n", seen, every);
  free(a), free(row), free(rp);
  return 0;
}
