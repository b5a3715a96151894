import AuthKit
import Foundation

// `password-hash LOGN [COUNT] [R] [P]`: the median time of COUNT (20) scrypt hashes at
// N = 2^LOGN, r = R (8), p = P (1), and the process's peak resident memory after them (run one
// setting per process: the peak is the process's). dynamodb.py's sibling for the password
// issue's parameters; `password-hash 14 20 8 5` is Gatehouse's setting (`ScryptParameters.current`).

let arguments = CommandLine.arguments
guard arguments.count >= 2, let logN = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: password-hash LOGN [COUNT] [R] [P]\n".utf8))
    exit(2)
}
let count = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let r = arguments.count > 3 ? Int(arguments[3]) ?? 8 : 8
let p = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1
let hasher = PasswordHasher(parameters: ScryptParameters(logN: logN, r: r, p: p))
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
    "ln=\(logN) r=\(r) p=\(p): median \(String(format: "%.2f", times[times.count / 2])) ms, "
        + "min \(String(format: "%.2f", times[0])) ms, scrypt memory \(128 * r * (1 << logN) / 1024) KiB, "
        + "peak RSS \(usage.ru_maxrss / 1024) MiB")
