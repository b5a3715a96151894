// A program that throws, awaits, and fails when asked to; UnwindTablesTests builds it without
// unwind tables, as every packaged function is built, to see that everything but a DWARF backtrace
// works as before.
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
if CommandLine.arguments.dropFirst().first == "fail" { fatalError("failing as asked") }
print("done")
