// Declarations only (include/FuzzDriver.h); the definition is in libclang_rt.fuzzer.
#include "FuzzDriver.h"
