// libFuzzer's entry for programs that have their own main (compiler-rt FuzzerInterface.h);
// `swiftc -sanitize=fuzzer` links the library that defines it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
