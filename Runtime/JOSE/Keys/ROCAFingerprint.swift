/// Detects RSA moduli made by the Infineon library flaw known as ROCA (CVE-2017-15361), whose
/// private keys can be recovered from the public key.
///
/// Such a modulus is `k·M + (65537^a mod M)` with `M` the product of the first primes (the first
/// 126, up to 701, for the 1952–3936-bit keys this module can accept), so for each of those
/// primes `p` the residue `n mod p` lies in the subgroup that 65537 generates modulo `p`. A
/// random modulus passes for every prime up to 701 whose subgroup is proper with a probability
/// of about 2^-167, so a match is a fingerprint, not a guess (Nemec et al., "The Return of
/// Coppersmith's Attack", CCS 2017).
enum ROCAFingerprint {
    /// For each prime up to 701 where 65537 does not generate the whole group, the prime and
    /// the residues 65537^k mod p.
    private static let tests: [(prime: UInt32, subgroup: Set<UInt32>)] = {
        var tests: [(prime: UInt32, subgroup: Set<UInt32>)] = []
        for prime in UInt32(3)...701 where (2..<prime).allSatisfy({ prime % $0 != 0 }) {
            var members = Set<UInt32>()
            var value: UInt32 = 1
            repeat {
                members.insert(value)
                value = value * (65537 % prime) % prime
            } while value != 1
            if members.count < prime - 1 { tests.append((prime, members)) }
        }
        return tests
    }()

    /// True when the big-endian modulus has the ROCA structure.
    static func matches(modulus: [UInt8]) -> Bool {
        for (prime, subgroup) in tests {
            var residue: UInt32 = 0
            for byte in modulus { residue = (residue << 8 | UInt32(byte)) % prime }
            if !subgroup.contains(residue) { return false }
        }
        return true
    }
}
