/* collapse(3) over a 3D box with flat indexing, OpenACC and OpenMP, with
 * non-zero lower bounds and a non-unit step. */
#include <stdio.h>

int main(void) {
  enum { NX = 20, NY = 17, NZ = 13 };
  static double u[NX * NY * NZ], v[NX * NY * NZ];
  int nx = NX, ny = NY, nz = NZ;
  for (int k = 0; k < nx * ny * nz; k++) {
    u[k] = (double)(k % 11);
    v[k] = 0.0;
  }
#pragma acc parallel loop collapse(3) copyin(u[0:nx*ny*nz]) copy(v[0:nx*ny*nz])
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++)
      for (int k = 1; k < nz - 1; k++)
        v[(i * ny + j) * nz + k] = u[((i - 1) * ny + j) * nz + k] + u[((i + 1) * ny + j) * nz + k] +
                                  u[(i * ny + j - 1) * nz + k] + u[(i * ny + j + 1) * nz + k] +
                                  u[(i * ny + j) * nz + k - 1] + u[(i * ny + j) * nz + k + 1];

#pragma omp target teams distribute parallel for collapse(3) map(tofrom: v[0:nx*ny*nz])
  for (int i = 0; i < nx; i += 2)
    for (int j = ny - 1; j >= 0; j--)
      for (int k = 0; k < nz; k++)
        v[(i * ny + j) * nz + k] += 0.5;

  double s = 0.0, s2 = 0.0;
  for (int k = 0; k < nx * ny * nz; k++) {
    s += v[k];
    s2 += v[k] * v[k];
  }
  printf("sum %.10g\n", s);
  printf("sumsq %.10g\n", s2);
  printf("v[1,1,1] %.10g\n", v[(1 * ny + 1) * nz + 1]);
  printf("v[2,3,4] %.10g\n", v[(2 * ny + 3) * nz + 4]);
  return 0;
}
