import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock.
@inlinable
public func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Runs `bodies` in turn, in batches of 100, for about `seconds` in all; returns each one's
/// operations per second. Alternating every few milliseconds means a neighbour's load or a
/// frequency change hits every side alike, which whole-second rounds did not. A body that
/// answers false stops the run: the benchmark measured something that failed.
@inlinable
public nonisolated func interleavedRates(seconds: Double, _ bodies: [() async -> Bool]) async -> [Double] {
    var times = [Double](repeating: 0, count: bodies.count)
    var count = 0
    while times.reduce(0, +) < seconds {
        for (side, body) in bodies.enumerated() {
            let start = monotonic()
            for _ in 0..<100 {
                guard await body() else { fatalError("side \(side) failed") }
            }
            times[side] += monotonic() - start
        }
        count += 100
    }
    return times.map { Double(count) / $0 }
}

/// The middle value (the upper one of an even count).
public func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// `value` with `digits` decimals.
public func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
