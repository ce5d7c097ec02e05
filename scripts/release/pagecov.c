// Preloaded into adal2msal by make-text-order.sh: lists which pages of the binary's code the run touched.
// At start it asks the kernel to read the code a page at a time (MADV_RANDOM: no read-ahead around a fault); at
// exit it writes, to the file $PAGECOV_OUT, the address (hex, from the binary's load address: as `nm` gives it) of
// each page of the code mapping that is present. With the binary out of the page cache and the disk's read-ahead
// off, a present page is a page the run executed (the kernel's fault-around maps only neighbours already cached).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
static unsigned long lo, hi, base = ~0UL;
__attribute__((constructor)) static void start(void) {
  unsetenv("LD_PRELOAD");
  char exe[4096]; ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1); if (n <= 0) return; exe[n] = 0;
  FILE *f = fopen("/proc/self/maps", "r"); if (!f) return; char line[8192];
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b, o; char perm[8]; char path[4096] = "";
    if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &a, &b, perm, &o, path) < 4 || strcmp(path, exe) != 0) continue;
    if (o == 0 && a < base) base = a;  // the first segment, mapped from the file's start, is at the load address
    if (perm[2] == 'x') { lo = a; hi = b; }
  }
  fclose(f);
  if (lo) madvise((void *)lo, hi - lo, MADV_RANDOM);
}
__attribute__((destructor)) static void end(void) {
  const char *out = getenv("PAGECOV_OUT"); if (!lo || base == ~0UL || !out) return;
  int fd = open("/proc/self/pagemap", O_RDONLY); FILE *o = fopen(out, "a"); if (fd < 0 || !o) return;
  long ps = sysconf(_SC_PAGESIZE);
  for (unsigned long p = lo; p < hi; p += ps) {
    uint64_t e; if (pread(fd, &e, 8, (p / ps) * 8) != 8) break;
    if (e >> 63) fprintf(o, "%lx\n", p - base);
  }
  fclose(o); close(fd);
}
