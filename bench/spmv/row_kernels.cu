// Thread-per-row and warp-per-row SpMV baselines of bench_spmv. They launch
// nothing from the device, so this file is compiled as whole-program device
// code: with -rdc=true (which bench_spmv.cu needs for its child launches)
// ptxas gave the thread-per-row kernel 78 registers instead of 32, and it ran
// about 20 % slower on the 2D Poisson matrix.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256)
    k_thread_row(int n, const int *__restrict__ rp, const int *__restrict__ col, const double *__restrict__ val,
                 const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = 0.0;
  for (int j = rp[i], e = rp[i + 1]; j < e; j++) s += val[j] * x[col[j]];
  y[i] = s;
}

__global__ void __launch_bounds__(256)
    k_warp_row(int n, const int *__restrict__ rp, const int *__restrict__ col, const double *__restrict__ val,
               const double *__restrict__ x, double *__restrict__ y) {
  long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (w >= n) return; // the whole warp leaves together
  double s = 0.0;
  for (int j = rp[w] + lane, e = rp[w + 1]; j < e; j += 32) s += val[j] * x[col[j]];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) y[w] = s;
}

extern "C" void spmv_thread_row(int n, const int *rp, const int *col, const double *val, const double *x, double *y) {
  if (n) k_thread_row<<<(unsigned)((n + 255) / 256), 256>>>(n, rp, col, val, x, y);
}

extern "C" void spmv_warp_row(int n, const int *rp, const int *col, const double *val, const double *x, double *y) {
  if (n) k_warp_row<<<(unsigned)(((long long)n * 32 + 255) / 256), 256>>>(n, rp, col, val, x, y);
}
