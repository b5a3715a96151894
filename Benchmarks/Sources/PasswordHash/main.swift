import AuthKit
import Foundation

// `password-hash LOGN [COUNT]`: the median time of COUNT (20) scrypt hashes at N = 2^LOGN,
// r = 8, p = 1, and the process's peak resident memory after them (run one LOGN per process:
// the peak is the process's). dynamodb.py's sibling for the password issue's parameters.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let logN = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: password-hash LOGN [COUNT]\n".utf8))
    exit(2)
}
let count = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let hasher = PasswordHasher(parameters: ScryptParameters(logN: logN, r: 8, p: 1))
var times: [Double] = []
for index in 0..<count {
    let start = ContinuousClock.now
    _ = try hasher.hash("correct horse battery staple \(index)")
    let elapsed = ContinuousClock.now - start
    times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}
times.sort()
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print(
    "ln=\(logN) r=8 p=1: median \(String(format: "%.2f", times[times.count / 2])) ms, "
        + "min \(String(format: "%.2f", times[0])) ms, scrypt memory \(128 * 8 * (1 << logN) / 1024) KiB, "
        + "peak RSS \(usage.ru_maxrss / 1024) MiB")
