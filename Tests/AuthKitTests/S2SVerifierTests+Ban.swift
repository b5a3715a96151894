import AuthKit
import JOSE
import Store
import Testing

extension S2SVerifierTests {
    /// A banned user's code is refused at the backend's redemption as at `/auth/exchange`
    /// (`SessionError.banned`), whichever sign-in minted it before or after the ban, and spent;
    /// once the ban is lifted a new code is redeemed.
    @Test func aBannedUsersCodeIsRefusedAtTheBackend() async throws {
        let setup = try await Setup()
        let user = try await UserDirectory(store: setup.store, clock: setup.clock).findOrCreate(
            email: try #require(EmailAddress("ada@example.com"))
        ).user
        let codes = AuthCodes(store: setup.store, clock: setup.clock)
        let code = try await codes.mint(app: "acme", user: user, provider: "email", isNewUser: false)
        let admin = UserAdmin(store: setup.store, clock: setup.clock, actor: .terminal)
        try await admin.ban(id: user.id, forSeconds: 3600)
        let verification = CodeVerification(store: setup.store, clock: setup.clock, issuer: Self.issuer)
        let assertion = try await setup.verify(try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey))
        await #expect(throws: SessionError.banned) {
            try await verification.verify(code: code, app: "acme", assertion: assertion)
        }
        #expect(try await setup.store.scan(AuthCodes.table, limit: nil).isEmpty, "the refused code is spent")

        try await admin.ban(id: user.id, forSeconds: nil)
        let next = try await codes.mint(app: "acme", user: user, provider: "email", isNewUser: false)
        let second = try await setup.verify(try JWS.signJWT(claims: setup.claims(jti: "jti-2"), with: Self.rsaKey))
        #expect(try await verification.verify(code: next, app: "acme", assertion: second).userID == user.id)
    }
}
