/// scrypt's cost: N = 2^`logN` (CPU and memory), `r` (block size), `p` (parallelism). Memory is
/// 128 · r · N bytes. Stored with every hash, so the cost can be raised later and a hash made at
/// a lower cost is redone at the next good sign-in.
public struct ScryptParameters: Sendable, Equatable, CustomStringConvertible {
    public var logN: Int
    public var r: Int
    public var p: Int

    public init(logN: Int, r: Int, p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Gatehouse's cost today, chosen by measurement (README, Benchmarks): N = 2^13, r = 8,
    /// p = 1, 8 MiB; 9.1 ms a hash on one core here, so about 60 ms on a 256 MB Lambda, which
    /// gets about a seventh of a vCPU.
    public static let current = ScryptParameters(logN: 13, r: 8, p: 1)

    /// Whether a stored hash's parameters may be tried at all: a tampered hash must not make a
    /// sign-in burn seconds or gigabytes (at most 2^17, r 16, p 4, and 64 MiB).
    var isAcceptable: Bool {
        (10...17).contains(logN) && (1...16).contains(r) && (1...4).contains(p) && memoryBytes <= 64 << 20
    }

    public var memoryBytes: Int { 128 * r * (1 << logN) }

    /// Whether a hash made with these is weaker than one made with `other`.
    public func isWeaker(than other: ScryptParameters) -> Bool {
        memoryBytes * p < other.memoryBytes * other.p
    }

    /// `ln=12,r=8,p=1`, as the PHC string format writes them.
    public var description: String { "ln=\(logN),r=\(r),p=\(p)" }
}
