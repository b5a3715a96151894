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

    /// The last verified factor removed by an admin takes the recovery codes with it, and the
    /// sessions a recovery code raised end, as the user's own removal does: a lost device's codes
    /// cannot stand in for a factor the user enrols later.
    @Test func anAdminRemovingTheLastFactorRemovesTheRecoveryCodes() async throws {
        let fixture = try await FactorsFixture()
        let admin = UserAdmin(store: fixture.store, clock: fixture.clock, actor: .terminal)
        let (_, bearer) = try await fixture.signIn()
        let enrollment = try await fixture.factors.enroll(
            friendlyName: "phone app", issuer: "Gatehouse", for: fixture.user, bearer: bearer)
        fixture.clock.set(SessionFixtures.start + 40)
        let secret = try #require(Base32.decode(enrollment.secret))
        _ = try await fixture.verify(enrollment.factor, code: fixture.code(secret), bearer: bearer)
        let (_, otherBearer) = try await fixture.signIn()
        let recovered = try await fixture.factors.useRecoveryCode(
            enrollment.recoveryCodes[0], user: fixture.user, bearer: otherBearer, sourceIP: "203.0.113.9")
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == 9)

        _ = try await admin.deleteFactor(enrollment.factor.id, userID: fixture.user.id)
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == nil)
        await #expect(throws: (any Error).self) {
            try await fixture.sessions.refresh(token: recovered.session.refreshToken)
        }
    }
}
