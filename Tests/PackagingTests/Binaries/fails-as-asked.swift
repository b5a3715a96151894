// A program that throws, awaits, ends a thread with pthread_exit (glibc unwinds the thread's
// stack to do it; top-level `await` ends the main thread that way too, through dispatch_main),
// and fails when asked to. UnwindTablesTests builds it without unwind tables,
// as every packaged function is built, to see that everything but a DWARF backtrace works as
// before.
#if canImport(Glibc)
import Glibc
#endif

struct Refused: Error {}

func check(_ value: Int) throws -> Int {
    if value > 2 { throw Refused() }
    return value
}

do {
    _ = try check(3)
} catch {
    print("caught \(error)")
}
let task = Task.detached { try check(1) + 1 }
print("awaited \(try await task.value)")
var thread = pthread_t()
guard pthread_create(&thread, nil, { _ in pthread_exit(nil) }, nil) == 0, pthread_join(thread, nil) == 0 else {
    fatalError("no thread")
}
print("joined")
if CommandLine.arguments.dropFirst().first == "fail" { fatalError("failing as asked") }
print("done")
