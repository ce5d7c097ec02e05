// glibc's allocator controls (mallopt, malloc_trim, malloc_usable_size), which Swift's Glibc module does not
// export. Empty elsewhere.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
