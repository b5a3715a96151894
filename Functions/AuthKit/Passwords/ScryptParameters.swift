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

    /// Reads `ln=14,r=8,p=5`, as the PHC string format writes them; nil for anything else.
    public init?(text: some StringProtocol) {
        var values: [Substring: Int] = [:]
        for pair in text.split(separator: ",") {
            let halves = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard halves.count == 2, let value = Int(halves[1]) else { return nil }
            values[Substring(halves[0])] = value
        }
        guard let logN = values["ln"], let r = values["r"], let p = values["p"], values.count == 3 else { return nil }
        self.init(logN: logN, r: r, p: p)
    }

    /// Gatehouse's cost today, one of OWASP's scrypt settings (Password Storage Cheat Sheet:
    /// N = 2^17, r = 8, p = 1 and its equals down to N = 2^13, p = 10): N = 2^14, r = 8, p = 5,
    /// 16 MiB. Of the five it is, with N = 2^13, p = 10, the least work (time grows with N · p),
    /// and it needs twice that one's memory; the hashing functions get 1,024 MB (a Lambda's CPU
    /// grows with its memory). Measured in the README's benchmarks. Hashes made at N = 2^13,
    /// r = 8, p = 1 before are weaker and redone at the next good sign-in.
    public static let current = ScryptParameters(logN: 14, r: 8, p: 5)

    /// The most a stored hash may cost to try: today's cost. A tampered hash must not make one
    /// sign-in cost many (seconds of CPU, or gigabytes), so stronger ones are refused.
    public static let ceiling = current

    /// Whether a stored hash's parameters may be tried at all: sane ranges (N from 2^10), and
    /// neither memory nor work (memory · p) above `ceiling`'s.
    var isAcceptable: Bool {
        (10...20).contains(logN) && (1...16).contains(r) && (1...16).contains(p)
            && memoryBytes <= Self.ceiling.memoryBytes && work <= Self.ceiling.work
    }

    /// What one hash costs, in bytes of scrypt's mixing passes: memory times `p`.
    var work: Int { memoryBytes * p }

    public var memoryBytes: Int { 128 * r * (1 << logN) }

    /// Whether a hash made with these is weaker than one made with `other`.
    public func isWeaker(than other: ScryptParameters) -> Bool {
        work < other.work
    }

    /// `ln=12,r=8,p=1`, as the PHC string format writes them.
    public var description: String { "ln=\(logN),r=\(r),p=\(p)" }
}
