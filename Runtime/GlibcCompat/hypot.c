// Keeps packaged functions within the glibc of Lambda's images (2.34 on provided.al2023).
// (The libstdc++ counterpart is in condition_variable.c.)
//
// glibc 2.35 gave hypot and hypotf new symbol versions. The static Foundation that a
// --static-swift-stdlib build links was built against a newer glibc and refers to plain
// `hypot` and `hypotf`, which a build machine with glibc >= 2.35 binds to the 2.35 versions:
// a binary provided.al2023 refuses to start. `gatehouse package` links with --wrap=hypot and
// --wrap=hypotf, which turn those references into __wrap_hypot and __wrap_hypotf, defined
// here to call the versions every glibc since the architecture's first has (the same
// results; only the long-gone SVID error mode differs).
#if defined(__linux__)
#include <features.h>
#endif
#if defined(__linux__) && defined(__GLIBC__)
#if defined(__x86_64__)
__asm__(".symver gatehouse_hypot_compat, hypot@GLIBC_2.2.5");
__asm__(".symver gatehouse_hypotf_compat, hypotf@GLIBC_2.2.5");
#elif defined(__aarch64__)
__asm__(".symver gatehouse_hypot_compat, hypot@GLIBC_2.17");
__asm__(".symver gatehouse_hypotf_compat, hypotf@GLIBC_2.17");
#endif
double gatehouse_hypot_compat(double x, double y);
float gatehouse_hypotf_compat(float x, float y);
double __wrap_hypot(double x, double y);
float __wrap_hypotf(float x, float y);
double __wrap_hypot(double x, double y) { return gatehouse_hypot_compat(x, y); }
float __wrap_hypotf(float x, float y) { return gatehouse_hypotf_compat(x, y); }
#endif
