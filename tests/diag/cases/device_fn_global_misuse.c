// expect: 19:45: error: 'scaled' uses the global 'width' through a macro and is called in an offload region; write the name out, or pass it as a parameter
// expect: 20:27: error: pointer 'buf' is used by 'reset', which the 'acc parallel loop' region calls, but its extent is unknown
// expect: 20:27: error: 'reset' assigns the global pointer 'buf' and is called in an offload region
// expect: 26:52: error: 'total' is in a 'reduction' clause, but 'add_total', which the region calls, uses the global 'total' itself
// expect: 39:5: error: 'alpha' is a global that 'relax', which the tasks call, uses (line 21), and the region's host code writes it here
// only-expected
/* Globals that functions called from device code use are the region's
 * device copy (named through gt_dg_NAME in the .gt.cu). Not allowed: a use
 * hidden in a macro (the copy's text is edited where the name is written), a
 * function assigning a global pointer (device code holds the device
 * address), a data-sharing clause on such a global (the function would not
 * see the private copy), and host code of a task region writing one between
 * phases (the device copy is made once). */
int width = 3;
double *buf;
double total;
double alpha = 0.5;
#define W width
static double scaled(double x) { return x * W; }
static void reset(void) { buf = 0; }
static void relax(double *u, int b) { u[b] *= alpha; }
static void add_total(double x) { total += x; }
void f(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) { x[i] = scaled(x[i]); if (x[i] < 0) reset(); }
#pragma acc parallel loop copy(x[0:n]) reduction(+:total)
  for (int i = 0; i < n; i++) add_total(x[i]);
}
void g(int n, double *u) {
#pragma omp target data map(tofrom: u[0:n])
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < 4; t++) {
    for (int b = 0; b < n; b++) {
#pragma omp task depend(inout: u[b])
      relax(u, b);
    }
#pragma omp taskwait
    alpha = alpha * 0.5;
  }
}
