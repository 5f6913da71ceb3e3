// Reference: device-to-device copy bandwidth (read + write), the practical
// limit BRIEF §5 quotes, measured in the same run as the gtcc kernels.
// usage: copy_bw [bytes] [reps]
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      return e_ == cudaErrorNoDevice || e_ == cudaErrorInsufficientDriver ? 77 : 1;   \
    }                                                                                 \
  } while (0)

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoull(argv[1], nullptr, 0) : (size_t)2 << 30;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  void *a, *b;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int r = 0; r < reps + 1; r++) {
    CHECK(cudaEventRecord(e0));
    CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0 && ms < best) best = ms;
  }
  printf("kernel,n,bytes,best_ms,GBps\n");
  printf("d2d_copy,%zu,%zu,%.4f,%.1f\n", bytes, 2 * bytes, best, 2.0 * bytes / best / 1e6);
  return 0;
}
