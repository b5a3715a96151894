// Keeps packaged functions within the libstdc++ of Lambda's images (gcc 11's on
// provided.al2023, whose newest version is GLIBCXX_3.4.29).
//
// gcc 12 gave std::condition_variable::wait(std::unique_lock<std::mutex>&) a new symbol
// version, GLIBCXX_3.4.30, keeping the old one as GLIBCXX_3.4.11. The static Foundation's ICU
// calls it, so a build on a machine with gcc 12's libstdc++ needs 3.4.30, which al2023 lacks
// (and Debian's libstdc++ itself needs glibc 2.36, so it cannot be bundled instead).
// `gatehouse package` links with --wrap for that symbol, which lands here and calls the
// GLIBCXX_3.4.11 version: what a build against al2023's own libstdc++ would call.
//
// The old version is looked up with dlvsym rather than bound with .symver, because dev
// builds link this file too, and they do not put libstdc++ on the link line.
#if defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
typedef void (*gatehouse_wait_function)(void *condition, void *lock);

static gatehouse_wait_function gatehouse_condition_variable_wait(void) {
    static gatehouse_wait_function resolved;
    gatehouse_wait_function function = __atomic_load_n(&resolved, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = (gatehouse_wait_function)dlvsym(
            RTLD_DEFAULT, "_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE", "GLIBCXX_3.4.11");
        if (function == NULL) abort();  // every libstdc++ since gcc 4.3 has it
        __atomic_store_n(&resolved, function, __ATOMIC_RELEASE);
    }
    return function;
}

// A member function: `this` and the lock, both pointers, in the C calling convention.
void __wrap__ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(void *condition, void *lock);
void __wrap__ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE(void *condition, void *lock) {
    gatehouse_condition_variable_wait()(condition, lock);
}
#endif
