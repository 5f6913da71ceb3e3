/* OpenACC's async queues and runtime directives: loops and updates with
 * async(q), `acc wait(q)`, `acc wait(1, 2) async(3)`, a bare `acc wait`,
 * `acc init` / `acc set` / `acc shutdown`. gtcc runs each kernel and copy
 * synchronously (so every wait has nothing left to wait for) and keeps the
 * runtime directives in the host code. The second loop reads what the first
 * wrote on another queue after a wait, as OpenACC requires; compared with
 * the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) a[i] = (double)(i % 101), b[i] = 0.0;
#pragma acc init device_type(nvidia)
#pragma acc set device_num(0)
#pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {
#pragma acc parallel loop async(1) present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + 1.0;
#pragma acc parallel loop async(2) present(b[0:n])
    for (int i = 0; i < n; i++) b[i] = (double)(i % 7);
#pragma acc wait(1, 2) async(3)
#pragma acc wait(3)
#pragma acc parallel loop async(1) present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) b[i] += a[n - 1 - i];
#pragma acc update self(a[0:n]) async(1)
#pragma acc wait
  }
#pragma acc shutdown
  double sa = 0.0, sb = 0.0;
  for (int i = 0; i < n; i++) sa += a[i], sb += b[i];
  printf("sum a %.2f sum b %.2f b[1] %.2f\n", sa, sb, b[1]);
  free(a), free(b);
  return 0;
}
