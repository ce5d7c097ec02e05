// libFuzzer's driver, exported by the runtime that -sanitize=fuzzer links (LLVM 11 and later). The fuzz
// targets call it from their own `main`: SwiftPM on Linux names each executable's entry point
// `<module>_main` and aliases `main` to it, so libFuzzer's `main` is never linked.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
