#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON Web Key (RFC 7517) as it appears on the wire: every member optional, values as
/// base64url text. Interpreting it (which key type, which members must be present) is the job
/// of the key types that are made from it.
public struct JWK: Codable, Sendable, Equatable {
    public var kty: String
    public var kid: String?
    public var use: String?
    public var alg: String?
    public var keyOps: [String]?
    // RSA
    public var n: String?
    public var e: String?
    public var d: String?
    public var p: String?
    public var q: String?
    public var dp: String?
    public var dq: String?
    public var qi: String?
    // EC and OKP
    public var crv: String?
    public var x: String?
    public var y: String?

    /// The members that only a private key has (RFC 7518 §6.3.2, §6.2.2, RFC 8037 §2).
    public static let privateMemberNames: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    public init(kty: String, kid: String? = nil, use: String? = nil, alg: String? = nil) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
    }

    enum CodingKeys: String, CodingKey {
        case kty, kid, use, alg, n, e, d, p, q, dp, dq, qi, crv, x, y
        case keyOps = "key_ops"
    }

    /// True when any private member is present.
    public var hasPrivateMembers: Bool {
        d != nil || p != nil || q != nil || dp != nil || dq != nil || qi != nil
    }

    /// The same key with every private member removed.
    public var publicKey: JWK {
        var copy = self
        copy.d = nil
        copy.p = nil
        copy.q = nil
        copy.dp = nil
        copy.dq = nil
        copy.qi = nil
        return copy
    }

    /// The RFC 7638 thumbprint: SHA-256 over the required public members in lexicographic order,
    /// base64url. Nil when a required member is missing or the key type is unknown.
    public func thumbprint() -> String? {
        let members: [(String, String?)]
        switch kty {
        case "RSA": members = [("e", e), ("kty", kty), ("n", n)]
        case "EC": members = [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        case "OKP": members = [("crv", crv), ("kty", kty), ("x", x)]
        default: return nil
        }
        var json = "{"
        for (index, (name, value)) in members.enumerated() {
            guard let value else { return nil }
            // Member values here are base64url or fixed names: no character needs escaping.
            json += (index == 0 ? "" : ",") + "\"\(name)\":\"\(value)\""
        }
        json += "}"
        return Base64URL.encode(SHA256Digest.of(Array(json.utf8)))
    }
}
