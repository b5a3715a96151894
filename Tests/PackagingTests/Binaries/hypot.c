// Calls hypot: linked on a glibc >= 2.35, it needs hypot@GLIBC_2.35, which provided.al2023
// (glibc 2.34) does not have.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    double x = argc > 1 ? atof(argv[1]) : 3.0;
    printf("%.1f\n", hypot(x, 4.0));
    return 0;
}
