/* A task that waits for its own successor: task 0 spins until task 1 has
 * written flag[1], but task 1 depends on task 0. The megakernel's watchdog
 * (GTRT_TASK_TIMEOUT, set to 2 s here) must stop the program with a located
 * error instead of hanging. (The plain C build hangs too: a user bug.) */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  setenv("GTRT_TASK_TIMEOUT", "2", 1);
  int n = 1000;
  int *flag = calloc((size_t)n, sizeof *flag);
#pragma omp target data map(tofrom: flag[0:n])
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task depend(in: flag[i - 1]) depend(out: flag[i])
    {
      if (i == 0)
        while (((volatile int *)flag)[1] == 0) {
        }
      flag[i] = 1;
    }
  }
  printf("%d\n", flag[n - 1]);
  return 0;
}
