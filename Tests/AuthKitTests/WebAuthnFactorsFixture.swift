import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import PasskeyKit
import Testing
import WebAuthn
import WebAuthnTesting

/// `FactorsFixture` with WebAuthn factors over it (RP ID `localhost`, the API at
/// `http://127.0.0.1:3000`, where the software authenticator runs) and the demo app.
struct WebAuthnFactorsFixture {
    let base: FactorsFixture
    let webAuthn: WebAuthnFactors
    let app: App
    static let settings = PasskeySettings(rpID: "localhost", apiOrigin: "http://127.0.0.1:3000")

    init() async throws {
        base = try await FactorsFixture()
        webAuthn = WebAuthnFactors(factors: base.factors, settings: Self.settings)
        app = try #require(try await AppRegistry(store: base.store).app(id: "demo"))
    }

    /// A software authenticator on the API's own origin.
    static func authenticator() -> SoftwareAuthenticator {
        var authenticator = SoftwareAuthenticator()
        authenticator.origin = "http://127.0.0.1:3000"
        return authenticator
    }

    /// A new WebAuthn factor of the fixture's user, enrolled from `bearer`.
    func enroll(_ bearer: AccessTokens.Bearer, name: String = "security key") async throws -> Factor {
        try await webAuthn.enroll(friendlyName: name, for: base.user, bearer: bearer).factor
    }

    /// A challenge of `factor` from `bearer`.
    func challenge(_ factor: Factor, bearer: AccessTokens.Bearer) async throws -> WebAuthnFactors.Begun {
        try await webAuthn.challenge(factor.id, of: base.user, bearer: bearer, app: app)
    }

    /// `credential` verified under `begun` from `bearer`.
    func verify(
        _ factor: Factor, _ begun: WebAuthnFactors.Begun, credential: JSONValue, bearer: AccessTokens.Bearer,
        ceremony: String? = nil, sourceIP: String? = "203.0.113.9"
    ) async throws -> SessionResponse {
        try await webAuthn.verify(
            factor.id, challengeID: begun.challenge.id, ceremony: ceremony, credential: credential, user: base.user,
            bearer: bearer, app: app, sourceIP: sourceIP)
    }

    /// `authenticator`'s credential registered on a new factor from `bearer`: the factor and the
    /// raised session.
    func register(
        _ authenticator: SoftwareAuthenticator, bearer: AccessTokens.Bearer
    ) async throws -> (factor: Factor, session: SessionResponse) {
        let factor = try await enroll(bearer)
        let begun = try await challenge(factor, bearer: bearer)
        let session = try await verify(
            factor, begun, credential: try authenticator.registrationJSON(options: begun.options), bearer: bearer)
        return (factor, session)
    }

    /// An assertion by `authenticator` for `factor` under `begun`'s options.
    static func assertion(
        _ authenticator: SoftwareAuthenticator, for factor: Factor, _ begun: WebAuthnFactors.Begun
    ) throws -> JSONValue {
        try authenticator.assertionJSON(options: begun.options, userHandle: Array(factor.id.utf8))
    }

    /// `authenticator`'s assertion for `factor` verified under `begun` from `bearer`.
    func assert(
        _ factor: Factor, _ begun: WebAuthnFactors.Begun, by authenticator: SoftwareAuthenticator,
        bearer: AccessTokens.Bearer
    ) async throws -> SessionResponse {
        try await verify(
            factor, begun, credential: try Self.assertion(authenticator, for: factor, begun), bearer: bearer)
    }

    /// The `amr` methods of `token`'s claims.
    func methods(_ token: String) throws -> [String] {
        try base.claims(token)["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } ?? []
    }
}
