// Linux's sync_file_range, which Swift's Glibc module does not export (glibc declares it for _GNU_SOURCE only, and
// the module is built without it): declared here as glibc declares it. Empty elsewhere.
#if defined(__linux__)
#include <sys/types.h>

#define ADAL2MSAL_SYNC_FILE_RANGE_WRITE 2

extern int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
#endif
