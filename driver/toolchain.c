/* Running the external toolchain and managing the files gtcc writes. */
#define _GNU_SOURCE /* pipe2, mkdtemp */
#include "toolchain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "strbuf.h"

/* ---- argv building ---- */

void drv_argv_add(DrvArgv *a, const char *s) {
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? 2 * a->cap : 16;
    a->v = xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
  }
  a->v[a->n++] = xstrdup(s);
  a->v[a->n] = NULL;
}

void drv_argv_addf(DrvArgv *a, const char *fmt, ...) {
  StrBuf sb;
  va_list ap;
  sb_init(&sb);
  va_start(ap, fmt);
  sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  drv_argv_add(a, sb.data);
  sb_free(&sb);
}

void drv_argv_free(DrvArgv *a) {
  for (int i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
  memset(a, 0, sizeof *a);
}

/* ---- running commands ---- */

/* Writes s quoted for a POSIX shell when it needs quoting. */
static void print_quoted(FILE *out, const char *s) {
  if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                      "-_./=+,:@%") == strlen(s)) {
    fputs(s, out);
    return;
  }
  fputc('\'', out);
  for (; *s; s++) {
    if (*s == '\'')
      fputs("'\\''", out);
    else
      fputc(*s, out);
  }
  fputc('\'', out);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

int drv_run(const DrvArgv *a, int verbose) {
  const char *name = base_name(a->v[0]);
  if (verbose) {
    for (int i = 0; i < a->n; i++) {
      if (i)
        fputc(' ', stderr);
      print_quoted(stderr, a->v[i]);
    }
    fputc('\n', stderr);
  }
  fflush(stdout);
  fflush(stderr);

  /* The child reports an exec failure's errno through a close-on-exec pipe. */
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) {
    drv_error("pipe: %s", strerror(errno));
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    drv_error("cannot run %s: fork: %s", name, strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    execvp(a->v[0], a->v);
    int err = errno;
    ssize_t w = write(fds[1], &err, sizeof err);
    (void)w;
    _exit(127);
  }
  close(fds[1]);
  int child_errno = 0;
  ssize_t r;
  do
    r = read(fds[0], &child_errno, sizeof child_errno);
  while (r < 0 && errno == EINTR);
  close(fds[0]);

  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      drv_error("waitpid: %s", strerror(errno));
      return -1;
    }
  }
  if (r == (ssize_t)sizeof child_errno) {
    drv_error("cannot run '%s': %s", a->v[0], strerror(child_errno));
    return -1;
  }
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 0)
      return 0;
    drv_error("%s failed (exit %d)", name, WEXITSTATUS(status));
    return -1;
  }
  if (WIFSIGNALED(status)) {
    drv_error("%s failed (killed by signal %d: %s)", name, WTERMSIG(status), strsignal(WTERMSIG(status)));
    return -1;
  }
  drv_error("%s failed (status %d)", name, status);
  return -1;
}

/* ---- the work directory ---- */

static char *workdir;

const char *drv_workdir_create(void) {
  if (workdir)
    return workdir;
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp)
    tmp = "/tmp";
  char *templ = xasprintf("%s/gtcc-XXXXXX", tmp);
  if (!mkdtemp(templ)) {
    drv_error("cannot make a temporary directory in '%s': %s", tmp, strerror(errno));
    free(templ);
    return NULL;
  }
  workdir = templ;
  return workdir;
}

void drv_workdir_remove(void) {
  if (!workdir)
    return;
  /* gtcc and the tools it runs write plain files only, no subdirectories. */
  DIR *d = opendir(workdir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
        continue;
      char *p = xasprintf("%s/%s", workdir, e->d_name);
      unlink(p);
      free(p);
    }
    closedir(d);
  }
  if (rmdir(workdir) < 0 && errno != ENOENT)
    drv_warning("cannot remove '%s': %s", workdir, strerror(errno));
  free(workdir);
  workdir = NULL;
}

/* ---- pending outputs ---- */

typedef struct Pending {
  char *tmp;
  char *final;
  int published;
} Pending;

static Pending *pending;
static int npending, cappending;

char *drv_pending_path(const char *final) {
  const char *base = base_name(final);
  size_t dirlen = (size_t)(base - final);
  char *tmp = xasprintf("%.*s.%s.gtcc%ld.tmp", (int)dirlen, final, base, (long)getpid());
  Pending p = {tmp, xstrdup(final), 0};
  /* Block signals while the list grows so the handler never sees it half-updated. */
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  VEC_PUSH(pending, npending, cappending, p);
  sigprocmask(SIG_SETMASK, &old, NULL);
  return tmp;
}

int drv_publish(void) {
  for (int i = 0; i < npending; i++) {
    Pending *p = &pending[i];
    if (p->published)
      continue;
    if (rename(p->tmp, p->final) < 0) {
      drv_error("cannot write '%s': %s", p->final, strerror(errno));
      return -1;
    }
    p->published = 1;
  }
  return 0;
}

void drv_discard_pending(void) {
  for (int i = 0; i < npending; i++) {
    if (!pending[i].published)
      unlink(pending[i].tmp);
    free(pending[i].tmp);
    free(pending[i].final);
  }
  free(pending);
  pending = NULL;
  npending = cappending = 0;
}

int drv_write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "w");
  if (!f) {
    drv_error("cannot write '%s': %s", path, strerror(errno));
    return -1;
  }
  size_t w = fwrite(text, 1, len, f);
  int bad = w != len || ferror(f);
  if (fclose(f) != 0 || bad) {
    drv_error("cannot write '%s': %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- finding tools ---- */

static int is_executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *drv_find_nvcc(void) {
  const char *path = getenv("PATH");
  if (path) {
    const char *p = path;
    while (*p) {
      size_t n = strcspn(p, ":");
      char *cand = n ? xasprintf("%.*s/nvcc", (int)n, p) : xstrdup("./nvcc");
      if (is_executable(cand))
        return cand;
      free(cand);
      p += n;
      if (*p == ':')
        p++;
    }
  }
  const char *home = getenv("CUDA_HOME");
  if (home && *home) {
    char *cand = xasprintf("%s/bin/nvcc", home);
    if (is_executable(cand))
      return cand;
    free(cand);
  }
  if (is_executable("/usr/local/cuda/bin/nvcc"))
    return xstrdup("/usr/local/cuda/bin/nvcc");
  return NULL;
}

/* ---- signals ---- */

/* Only async-signal-safe calls here: unlink, rmdir, signal, raise. The
 * work directory holds files that gtcc named, plus what tools wrote there;
 * the latter may survive an interrupt, the former do not. */
static void on_signal(int sig) {
  for (int i = 0; i < npending; i++)
    if (!pending[i].published)
      unlink(pending[i].tmp);
  if (workdir) {
    DIR *d = opendir(workdir); /* not strictly safe, but the process is dying */
    if (d) {
      struct dirent *e;
      while ((e = readdir(d))) {
        char buf[4096];
        if (e->d_name[0] == '.')
          continue;
        size_t a = strlen(workdir), b = strlen(e->d_name);
        if (a + b + 2 > sizeof buf)
          continue;
        memcpy(buf, workdir, a);
        buf[a] = '/';
        memcpy(buf + a + 1, e->d_name, b + 1);
        unlink(buf);
      }
      closedir(d);
    }
    rmdir(workdir);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void drv_install_signal_cleanup(void) {
  int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

double drv_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
