/* numdiff: compares two program outputs token by token.
 *
 *   numdiff [-r RELTOL] [-a ABSTOL] [-q] EXPECTED ACTUAL
 *
 * Tokens are separated by white space (line structure is not compared, but
 * line numbers are reported). Two tokens that both parse completely as
 * numbers (strtod: 12, -3.5e-7, inf, nan) match when they are equal, both
 * NaN, or |a - b| <= max(ABSTOL, RELTOL * max(|a|, |b|)); defaults RELTOL
 * 1e-9, ABSTOL 0. Any other token must match exactly. Prints the first
 * mismatch with its line numbers (unless -q) and exits 1; 0 when the outputs
 * match; 2 on usage or I/O errors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const char *path;
  FILE *f;
  long line; /* line of the last token returned */
  long cur;  /* line the reader is on */
  char *tok;
  size_t cap;
} reader;

/* Next token into r->tok; 0 at end of file. */
static int next_token(reader *r) {
  size_t len = 0;
  int c;
  do {
    c = getc(r->f);
    if (c == '\n')
      r->cur++;
  } while (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f');
  if (c == EOF)
    return 0;
  r->line = r->cur;
  while (c != EOF && !(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')) {
    if (len + 2 > r->cap) {
      r->cap = r->cap ? 2 * r->cap : 64;
      r->tok = realloc(r->tok, r->cap);
      if (!r->tok) {
        fprintf(stderr, "numdiff: out of memory\n");
        exit(2);
      }
    }
    r->tok[len++] = (char)c;
    c = getc(r->f);
  }
  if (c == '\n')
    ungetc(c, r->f);
  r->tok[len] = '\0';
  return 1;
}

static int parse_number(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return end != s && *end == '\0';
}

static int numbers_match(double a, double b, double rel, double abs_tol) {
  if (a == b || (isnan(a) && isnan(b)))
    return 1;
  if (isinf(a) || isinf(b) || isnan(a) || isnan(b))
    return 0;
  double d = fabs(a - b), scale = fmax(fabs(a), fabs(b));
  return d <= abs_tol || d <= rel * scale;
}

static double parse_tol(const char *opt, const char *s) {
  double v;
  if (!s || !parse_number(s, &v) || !(v >= 0.0)) {
    fprintf(stderr, "numdiff: %s needs a non-negative number\n", opt);
    exit(2);
  }
  return v;
}

static void usage(void) {
  fprintf(stderr, "usage: numdiff [-r RELTOL] [-a ABSTOL] [-q] EXPECTED ACTUAL\n");
  exit(2);
}

int main(int argc, char **argv) {
  double rel = 1e-9, abs_tol = 0.0;
  int quiet = 0, k = 1;
  for (; k < argc && argv[k][0] == '-' && argv[k][1]; k++) {
    if (strcmp(argv[k], "-r") == 0)
      rel = parse_tol("-r", argv[++k]);
    else if (strcmp(argv[k], "-a") == 0)
      abs_tol = parse_tol("-a", argv[++k]);
    else if (strcmp(argv[k], "-q") == 0)
      quiet = 1;
    else if (strcmp(argv[k], "--") == 0) {
      k++;
      break;
    } else
      usage();
  }
  if (argc - k != 2)
    usage();
  /* Static: the token buffers stay reachable until exit (LeakSanitizer of
   * the GTCC_SANITIZE build would report them after main returns). */
  static reader r[2];
  r[0] = (reader){.path = argv[k], .cur = 1};
  r[1] = (reader){.path = argv[k + 1], .cur = 1};
  for (int i = 0; i < 2; i++) {
    r[i].f = fopen(r[i].path, "r");
    if (!r[i].f) {
      fprintf(stderr, "numdiff: cannot open %s: %s\n", r[i].path, strerror(errno));
      return 2;
    }
  }
  long ntok = 0;
  double worst = 0.0;
  for (;;) {
    int h0 = next_token(&r[0]), h1 = next_token(&r[1]);
    if (!h0 && !h1)
      break;
    ntok++;
    if (!h0 || !h1) {
      reader *more = h0 ? &r[0] : &r[1], *less = h0 ? &r[1] : &r[0];
      if (!quiet)
        printf("numdiff: %s ends at line %ld, but %s:%ld has more: '%s'\n", less->path, less->cur, more->path,
               more->line, more->tok);
      return 1;
    }
    double a, b;
    int na = parse_number(r[0].tok, &a), nb = parse_number(r[1].tok, &b);
    int ok;
    if (na && nb) {
      ok = numbers_match(a, b, rel, abs_tol);
      if (ok && a != b && isfinite(a) && isfinite(b)) {
        double s = fmax(fabs(a), fabs(b));
        if (s > 0 && fabs(a - b) / s > worst)
          worst = fabs(a - b) / s;
      }
    } else
      ok = strcmp(r[0].tok, r[1].tok) == 0;
    if (!ok) {
      if (!quiet) {
        printf("numdiff: first mismatch (token %ld): %s:%ld '%s' vs %s:%ld '%s'", ntok, r[0].path, r[0].line,
               r[0].tok, r[1].path, r[1].line, r[1].tok);
        if (na && nb)
          printf(" (|diff| %.3g, relative %.3g; tolerance rel %g abs %g)", fabs(a - b),
                 fabs(a - b) / fmax(fabs(a), fabs(b)), rel, abs_tol);
        printf("\n");
      }
      return 1;
    }
  }
  if (!quiet && worst > 0.0)
    printf("numdiff: %ld tokens match (largest relative difference %.3g)\n", ntok, worst);
  return 0;
}
