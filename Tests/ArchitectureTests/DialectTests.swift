import Foundation
import Testing

/// Supabase's dialect lives at its edge: AuthKit throws domain errors, and only SupabaseEdge and
/// the Supabase functions name supabase/auth's error codes.
struct DialectTests {
    static let root = ModuleGraphTests.root

    /// Codes both dialects use for the same refusal, in the same words.
    static let shared: Set<String> = [
        "weak_password", "invalid_credentials", "email_not_confirmed", "same_password", "user_not_found",
    ]

    /// Every `code: "…"` the Supabase edge answers.
    static func supabaseCodes() throws -> Set<String> {
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Functions").path)
            .filter { $0.hasPrefix("Supabase") }
        var codes: Set<String> = []
        for folder in folders {
            for text in try sources(in: "Functions/\(folder)") {
                codes.formUnion(literals(in: text, after: "code: \""))
            }
        }
        return codes
    }

    static func sources(in folder: String) throws -> [String] {
        let base = root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.map {
            try String(contentsOf: base.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// The `snake_case` words in quotes that follow `prefix` in `text` (every quoted word when
    /// `prefix` is just the quote).
    static func literals(in text: String, after prefix: String) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let start = rest.range(of: prefix) {
            let word = rest[start.upperBound...].prefix { $0.isLowercase || $0 == "_" }
            if rest[start.upperBound...].dropFirst(word.count).first == "\"", word.contains("_") {
                found.insert(String(word))
            }
            rest = rest[start.upperBound...]
        }
        return found
    }

    @Test func authKitNamesNoneOfSupabasesOwnErrorCodes() throws {
        let supabase = try Self.supabaseCodes().subtracting(Self.shared)
        #expect(supabase.contains("otp_expired") && supabase.contains("flow_state_not_found"), "\(supabase)")
        var named: Set<String> = []
        for text in try Self.sources(in: "Functions/AuthKit") {
            named.formUnion(Self.literals(in: text, after: "\""))
        }
        #expect(named.intersection(supabase).isEmpty, "AuthKit names \(named.intersection(supabase).sorted())")
    }
}
