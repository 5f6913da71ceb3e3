/* This file starts with a UTF-8 byte-order mark, as some editors write
 * one: the generated files must not carry it into their middle. A flat
 * loop; compared with the CPU build. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  if (n < 1) n = 1;
  double *x = malloc(sizeof(double) * (size_t)n);
#pragma acc parallel loop copyout(x[0:n])
  for (int i = 0; i < n; i++) x[i] = 0.5 * i;
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i];
  printf("n %d sum %.1f\n", n, s);
  return 0;
}
