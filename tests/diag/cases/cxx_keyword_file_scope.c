// expect: 9:14: error: 'bool' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// expect: 10:24: error: 'class' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// expect: 17:26: error: 'new' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// expect: 11:20: error: 'this' is a C++ keyword; offload regions are compiled as CUDA C++: rename it
// only-expected
/* The file's type declarations go into the .gt.cu as they are (a typedef
 * named bool, a field named class), and so do the functions offload
 * regions call (a function named new, its parameter this). */
typedef char bool;
struct item { int key, class; };
static int new(int this) { return this + 1; }
static int unused_on_device(int delete) { return delete; }

void f(int n, struct item *it, int *out) {
#pragma acc parallel loop copyin(it[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = it[i].key + new(it[i].class);
  out[0] = unused_on_device(n);
}
