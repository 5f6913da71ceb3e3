static inline void hbump(int *c) {
#pragma omp atomic
  *c += 1;
}
