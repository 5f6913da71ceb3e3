/* Toolchain: the temporary work directory, running cc / nvcc / ld with argv
 * arrays (fork + execvp, no shell), and publishing outputs atomically.
 * Nothing here exits; failures are reported as `gtcc: error: ...` and
 * returned. */
#ifndef GTCC_DRV_TOOLCHAIN_H
#define GTCC_DRV_TOOLCHAIN_H

#include <stddef.h>

/* An argv under construction (NULL-terminated, strings owned). */
typedef struct DrvArgv {
  char **v;
  int n, cap;
} DrvArgv;

void drv_argv_add(DrvArgv *a, const char *s);
void drv_argv_addf(DrvArgv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void drv_argv_free(DrvArgv *a);

/* Runs argv[0] (looked up in PATH) and waits. With verbose the command is
 * printed to stderr first, quoted like a shell would need. Returns 0 when
 * it exited with status 0; otherwise prints `gtcc: error: NAME failed
 * (exit N)` (or why it could not start) and returns -1. */
int drv_run(const DrvArgv *a, int verbose);

/* Makes the work directory $TMPDIR/gtcc-XXXXXX (TMPDIR default /tmp).
 * Returns its path (owned by the toolchain), or NULL after an error. */
const char *drv_workdir_create(void);
/* Removes the work directory and everything in it (no-op if none). */
void drv_workdir_remove(void);

/* Final outputs: a temporary name next to `final` (same directory, so the
 * rename is atomic) that is removed by drv_discard_pending() unless
 * drv_publish() renamed it first. */
char *drv_pending_path(const char *final);
/* Renames every pending file to its final name; 0 or -1 (error printed). */
int drv_publish(void);
/* Removes all pending files that were not published. */
void drv_discard_pending(void);

/* Writes len bytes of text to path (created or truncated); 0 or -1 with
 * an error printed. */
int drv_write_file(const char *path, const char *text, size_t len);

/* Finds nvcc: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin.
 * Returns a malloc'ed path or NULL. */
char *drv_find_nvcc(void);

/* Removes the work directory and pending outputs on SIGINT/SIGTERM/SIGHUP,
 * then dies of the same signal. */
void drv_install_signal_cleanup(void);

/* Milliseconds from a monotonic clock. */
double drv_now_ms(void);

#endif
