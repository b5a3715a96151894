import AuthKit
import Foundation
import Testing

/// An admin's removal of a user's factor (`UserAdmin.deleteFactor`): the factor goes and the
/// sessions it raised end; an unknown factor is `factorNotFound`.
struct UserAdminFactorTests {
    @Test func anAdminRemovesAFactorAndTheSessionsItRaised() async throws {
        let fixture = try await FactorsFixture()
        let admin = UserAdmin(store: fixture.store, clock: fixture.clock, actor: .serverKey(id: "k", app: "demo"))
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        #expect(try await admin.factors(id: fixture.user.id).map(\.id) == [factor.id])
        let removed = try await admin.deleteFactor(factor.id, userID: fixture.user.id)
        #expect(removed.id == factor.id)
        #expect(try await admin.factors(id: fixture.user.id).isEmpty)
        await #expect(throws: (any Error).self) { try await fixture.sessions.refresh(token: raised.refreshToken) }
        await #expect(throws: UserAdminError.factorNotFound) {
            try await admin.deleteFactor(factor.id, userID: fixture.user.id)
        }
        await #expect(throws: UserAdminError.userNotFound) { try await admin.factors(id: "nobody") }
    }
}
