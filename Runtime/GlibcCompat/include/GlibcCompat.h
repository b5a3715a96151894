// Nothing to call: this target only defines symbols the linker is told to use instead of
// newer glibc ones (see hypot.c).
