/* Storage and clock faults for the registry's fault tests, by LD_PRELOAD; controlled
 * from outside the process through files, so a test turns faults on and off while the
 * server runs:
 *
 *   SAMEKEY_FAULT_DIR   writes and syncs of files under this directory fail with EIO
 *                       while the file $SAMEKEY_FAULT_DIR.eio exists (beside it, so
 *                       creating it is not a write under the directory)
 *   SAMEKEY_FAULT_CLOCK a file holding a number of seconds added to CLOCK_REALTIME
 *                       (wall-clock jumps; monotonic clocks are left alone)
 *
 * Built by tests/faults.rs with the machine's cc. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int failing(int fd) {
  const char *dir = getenv("SAMEKEY_FAULT_DIR");
  if (!dir) return 0;
  char control[4096];
  snprintf(control, sizeof control, "%s.eio", dir);
  if (access(control, F_OK) != 0) return 0;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  size_t len = strlen(dir);
  return strncmp(path, dir, len) == 0 && (path[len] == '/' || path[len] == 0);
}

#define REAL(name) static __typeof__(&name) real; if (!real) real = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

ssize_t write(int fd, const void *buf, size_t count) {
  REAL(write);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  REAL(pwrite);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  REAL(pwrite64);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd, buf, count, offset);
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
  REAL(writev);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd, iov, iovcnt);
}

int fsync(int fd) {
  REAL(fsync);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd);
}

int fdatasync(int fd) {
  REAL(fdatasync);
  if (failing(fd)) { errno = EIO; return -1; }
  return real(fd);
}

int clock_gettime(clockid_t clock, struct timespec *tp) {
  REAL(clock_gettime);
  int r = real(clock, tp);
  const char *file = getenv("SAMEKEY_FAULT_CLOCK");
  if (r != 0 || clock != CLOCK_REALTIME || !file) return r;
  FILE *f = fopen(file, "r");
  if (!f) return r;
  long long offset = 0;
  if (fscanf(f, "%lld", &offset) == 1) tp->tv_sec += offset;
  fclose(f);
  return r;
}
