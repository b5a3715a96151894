import AuthKit
import Foundation
import GatehouseJSON
import Store
import StoreCore
import Testing

/// `FactorsFixture` with phone factors: their codes texted to the local outbox (or made and
/// checked by `provider`, Twilio Verify's place), under `budget`.
struct PhoneFactorsFixture {
    static let number = PhoneNumber("+14155550123")!
    static let source = "203.0.113.9"

    let base: FactorsFixture
    let codes: PhoneCodes
    let phoneFactors: PhoneFactors

    init(
        provider: (any PhoneVerificationProvider)? = nil,
        budget: SendBudget = SendBudget(perApp: 1_000, total: 1_000)
    ) async throws {
        base = try await FactorsFixture()
        codes = PhoneCodes(
            store: base.store, clock: base.clock, sender: OutboxSender(store: base.store, clock: base.clock),
            secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)), provider: provider, budget: budget)
        phoneFactors = PhoneFactors(factors: base.factors, codes: codes)
    }

    /// A new unverified phone factor of the fixture's user for `number`.
    func enroll(
        _ bearer: AccessTokens.Bearer, number: PhoneNumber = Self.number, name: String = "my phone"
    ) async throws -> Factor {
        try await phoneFactors.enroll(number, friendlyName: name, for: base.user, bearer: bearer).factor
    }

    /// A challenge of `factor` from `bearer` and `source`, its text sent at once.
    func challenge(
        _ factor: Factor, bearer: AccessTokens.Bearer, source: String? = Self.source
    ) async throws -> FactorChallenge {
        let (challenge, text) = try await phoneFactors.challenge(factor.id, bearer: bearer, sourceIP: source)
        try await text()
        return challenge
    }

    func verify(
        _ factor: Factor, challenge: FactorChallenge, code: String, bearer: AccessTokens.Bearer,
        user: User? = nil, source: String? = Self.source
    ) async throws -> SessionResponse {
        try await phoneFactors.verify(
            factor.id, challengeID: challenge.id, code: code, user: user ?? base.user, bearer: bearer,
            sourceIP: source)
    }

    /// The codes texted to `number`, oldest first.
    func texts(to number: PhoneNumber = Self.number) async throws -> [String] {
        try await base.store.query(
            OutboxSender.table, partition: .string(number.value), sortKey: nil, limit: nil, ascending: true
        ).compactMap { $0["secret"]?.stringValue }
    }

    /// A wrong code: not `code`.
    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }
}
