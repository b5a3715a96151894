import Foundation
import JOSE

/// What the JWKS endpoint pays at start-up to read its keys: the full private set (every RSA
/// private key built) against the public-only read, on the same two-key set, in one run.
@main
struct KeyLoad {
    static func main() throws {
        var set = try SigningKeySet.generate()
        try set.rotate()
        let json = Array(try set.privateJWKSJSON())
        let iterations = 2_000

        func measure(_ name: String, _ body: () throws -> Void) rethrows -> Double {
            for _ in 0..<50 { try body() }
            let clock = ContinuousClock()
            let elapsed = try clock.measure { for _ in 0..<iterations { try body() } }
            let microseconds =
                (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
                / Double(iterations)
            print(
                "\(name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", microseconds)) µs per load"
            )
            return microseconds
        }
        let full = try measure("SigningKeySet(jwksJSON:) (private keys built)") {
            _ = try SigningKeySet(jwksJSON: json)
        }
        let publicOnly = try measure("SigningKeySet.publicJWKS(fromJWKSJSON:)") {
            _ = try SigningKeySet.publicJWKS(fromJWKSJSON: json)
        }
        print(
            "public-only read: \(String(format: "%.1f", full / publicOnly))x faster, \(String(format: "%.2f", (full - publicOnly) / 1000)) ms saved per cold start (2 keys)"
        )
    }
}
