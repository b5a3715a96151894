// A program that throws a C++ exception and catches it: built without unwind tables, it cannot
// (the throw ends the process), so `gatehouse package` refuses such a binary.
#include <cstdio>
#include <stdexcept>

int main() {
    try {
        throw std::runtime_error("thrown");
    } catch (const std::exception &error) {
        std::printf("caught %s\n", error.what());
    }
    return 0;
}
