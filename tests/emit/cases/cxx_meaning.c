/* C that C++ reads differently or rejects, in code gtcc copies into the
 * .gt.cu (compiled as CUDA C++):
 * - sizeof of a character constant or of a comparison is sizeof(int) in C,
 *   1 in C++: the generated code said 1, a silent wrong answer;
 * - an implicit conversion from void * (`int *q = vp;`, a void * argument
 *   given to an int * parameter) or from an int to an enum (`enum shade
 *   sh = i % 3;`) is C, an nvcc error in C++.
 * - functions of the file named like CUDA's own (`max`, `norm`): nvcc
 *   reported a redefinition of max(int, int); they are renamed in the .gt.cu.
 * In a flat loop, a nested loop's Before, inner body and After, a device
 * function and a phased task region. Compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

enum shade { DARK, MID, LIGHT };
typedef enum { LOW = 1, HIGH = 4 } level_t;

static int max(int a, int b) { return a > b ? a : b; }
static double norm(double a, double b) { return a * a + b; } /* not CUDA's norm(int, const double *) */

static int weight(const void *p, int j) {
  const int *w = p; /* void * to int *: implicit in C */
  return max(w[j % 4], 2) + (int)sizeof('w');
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000, nb = 64;
  long long *y = malloc(sizeof(long long) * (size_t)n), *z = malloc(sizeof(long long) * (size_t)n);
  int wts[4] = {1, 2, 3, 5};
  if (!y || !z) return 1;

#pragma acc parallel loop copyout(y[0:n])
  for (int i = 0; i < n; i++) y[i] = (long long)sizeof('a') * i + (long long)sizeof(i == 3);

#pragma acc parallel loop copy(y[0:n]) copyin(wts[0:4])
  for (int i = 0; i < n; i++) {
    const void *vp = wts;
    const int *w = vp;
    enum shade sh = i % 3;
    level_t lv = (i & 1) ? HIGH : 1;
    int c = (int)sizeof(i < 7) + w[i % 4] + 100 * (int)sh + 1000 * (int)lv;
    long long s = 0;
#pragma acc loop reduction(+:s)
    for (int j = 0; j < (i * 37) % 700; j++) s += weight(vp, j) + (long long)sizeof('x' + 0);
    y[i] += s * 10 + c + (long long)sizeof(!i) + max(i % 5, 3) + (long long)norm(i % 9, 0.5);
  }

  for (int i = 0; i < n; i++) z[i] = i % 11;
#pragma omp target data map(tofrom: z[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 3; t++) {
    for (int b = 0; b < nb; b++) {
#pragma omp task depend(inout: z[b * (n / nb)])
      {
        void *vz = z;
        long long *zz = vz;
        for (int i = b * (n / nb); i < (b + 1) * (n / nb); i++) zz[i] = zz[i] * 3 + (long long)sizeof('t') + t;
      }
    }
#pragma omp taskwait
  }

  long long sy = 0, sz = 0;
  for (int i = 0; i < n; i++) sy += y[i] % 1000003, sz += z[i] % 1000003;
  printf("y %lld %lld %lld\nz %lld %lld\n", sy, y[1], y[n - 1], sz, z[n / 2]);
  free(y), free(z);
  return 0;
}
