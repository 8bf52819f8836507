// Why this file exists: on Linux, Synchronization.Mutex is a priority-inheritance futex. Its
// uncontended lock and unlock are atomic compare-exchanges inlined into our (instrumented)
// code, which ThreadSanitizer sees; but when a thread has to wait, the lock passes from the
// owner to the waiter inside the kernel (FUTEX_UNLOCK_PI / FUTEX_LOCK_PI, issued by
// `_MutexHandle._unlockSlow` / `_lockSlow` in the uninstrumented libswiftSynchronization.so),
// and ThreadSanitizer sees no synchronisation at all. Every contended `withLock` then shows as
// a "data race" or "Swift access race" between two accesses made under the same lock
// (Tests/SanitizerTests/MutexHandOffTests.swift reproduces it). Rather than suppress the
// reports by file, which would hide real races in those files, TSan builds of the executable
// and of the tests define the two slow paths here: each calls the library's own (dlsym RTLD_NEXT) and tells
// ThreadSanitizer what happened: a release of the lock's address before an unlock hands the
// lock on, an acquire of it once a waiter holds it. The fast paths already synchronise on the
// same address, so every hand-off is covered. Without ThreadSanitizer this file is empty.
#include "TSanMutexHandOff.h"

#if defined(__linux__) && defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MG_TSAN_HAND_OFF 1
#endif
#endif

#ifdef MG_TSAN_HAND_OFF
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>

void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Swift's calling convention: `borrowing self` (the handle's address) comes in the self
// register (swift_context), the thread id first.
typedef __attribute__((swiftcall)) void (*LockSlow)(uint32_t selfId, __attribute__((swift_context)) void *handle);
typedef __attribute__((swiftcall)) void (*UnlockSlow)(__attribute__((swift_context)) void *handle);

static void *library_function(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == NULL) {
        fprintf(stderr, "TSanMutexHandOff: %s not found in libswiftSynchronization\n", name);
        abort();
    }
    return function;
}

__attribute__((swiftcall)) void mg_lock_slow(uint32_t selfId, __attribute__((swift_context)) void *handle)
    __asm__(LOCK_SLOW);
__attribute__((swiftcall)) void mg_lock_slow(uint32_t selfId, __attribute__((swift_context)) void *handle) {
    static LockSlow real;
    LockSlow function = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = (LockSlow)library_function(LOCK_SLOW);
        __atomic_store_n(&real, function, __ATOMIC_RELEASE);
    }
    function(selfId, handle);
    __tsan_acquire(handle);
}

__attribute__((swiftcall)) void mg_unlock_slow(__attribute__((swift_context)) void *handle) __asm__(UNLOCK_SLOW);
__attribute__((swiftcall)) void mg_unlock_slow(__attribute__((swift_context)) void *handle) {
    static UnlockSlow real;
    UnlockSlow function = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = (UnlockSlow)library_function(UNLOCK_SLOW);
        __atomic_store_n(&real, function, __ATOMIC_RELEASE);
    }
    __tsan_release(handle);
    function(handle);
}

int mg_tsan_mutex_hand_off_annotated(void) { return 1; }
#else
int mg_tsan_mutex_hand_off_annotated(void) { return 0; }
#endif
