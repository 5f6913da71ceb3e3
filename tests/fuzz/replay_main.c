/* Replays inputs through a fuzz target without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every regular file of the directories
 * (or files) given, in name order, and prints how many it ran. A crash,
 * sanitizer report or hang fails the CTest test that runs it. */
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    perror(path);
    return -1;
  }
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
    n += got;
    if (n == cap) {
      unsigned char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  int err = ferror(fp);
  fclose(fp);
  if (!buf || err) {
    fprintf(stderr, "%s: read error\n", path);
    free(buf);
    return -1;
  }
  /* An exact-size copy, so ASan sees reads past the input's end. */
  unsigned char *data = malloc(n ? n : 1);
  memcpy(data, buf, n);
  free(buf);
  LLVMFuzzerTestOneInput(data, n);
  free(data);
  return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
  int nrun = 0, nfail = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      nfail++;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      if (run_file(argv[i]) == 0) nrun++; else nfail++;
      continue;
    }
    DIR *dir = opendir(argv[i]);
    if (!dir) {
      perror(argv[i]);
      nfail++;
      continue;
    }
    char **names = NULL;
    size_t nnames = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (e->d_name[0] == '.') continue; /* ., .., .gitkeep */
      if (nnames == cap) names = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
      names[nnames++] = strdup(e->d_name);
    }
    closedir(dir);
    if (nnames) qsort(names, nnames, sizeof *names, by_name);
    for (size_t k = 0; k < nnames; k++) {
      size_t len = strlen(argv[i]) + strlen(names[k]) + 2;
      char *path = malloc(len);
      snprintf(path, len, "%s/%s", argv[i], names[k]);
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        fprintf(stderr, "replay: %s\n", path);
        if (run_file(path) == 0) nrun++; else nfail++;
      }
      free(path);
      free(names[k]);
    }
    free(names);
  }
  printf("replayed %d input%s%s\n", nrun, nrun == 1 ? "" : "s", nfail ? " (some could not be read)" : "");
  return nfail ? 1 : 0;
}
