// expect: 28:12: error: type 'struct acc' used in an offload region is declared inside a function in a declaration that also declares or reads variables; declare it in a declaration of its own, or at file scope
// expect: 29:33: error: enumerator 'SCALE' used in an offload region is declared inside a function in a declaration that also declares or reads variables; declare it in a declaration of its own, or at file scope
// expect: 47:12: error: type 'struct pair' used in an offload region is declared inside a function, and another function declares the same name; rename one of them, or declare it once at file scope
// expect: 48:12: error: type 'struct box' used in an offload region is declared inside a function, and the file declares the same name at file scope; rename one of them
// only-expected
/* Types and enumerators declared in a function outside the region and
 * used in its body move to the .gt.cu's file scope (tests/emit/cases/
 * local_types.c). Not these: a declaration that also declares a variable
 * or reads one (its text would not mean the same at file scope), and two
 * declarations of one name (in two functions, or in a function and at
 * file scope). Declarations in the region's body or in a called function
 * are copied with it: no error. */
static int twice(int v) {
  typedef int half_t;
  half_t h = (half_t)v;
  return 2 * h;
}

struct box { int v; };

void f(int n, int *x) {
  struct acc { int s; } a0 = {1};
  enum { SCALE = sizeof a0 };
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) {
    typedef long inner_t;
    inner_t t = (inner_t)x[i];
    struct acc a = {1};
    x[i] = (int)t * a.s + twice(SCALE);
  }
}

void g(int n, int *x) {
  struct pair { int a, b; };
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) {
    struct pair p = {i, 2};
    x[i] += p.a * p.b;
  }
}

void h(int n, int *x) {
  struct pair { long a, b; };
  struct box { long w; };
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) {
    struct pair p = {i, 3};
    struct box q = {4};
    x[i] += (int)(p.a * p.b + q.w);
  }
}
