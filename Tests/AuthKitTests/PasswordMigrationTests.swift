import AuthKit
import Foundation
import GatehouseJSON
import Store
import Synchronization
import Testing

/// Users moved from another service (Cognito) at their first password sign-in
/// (`PasswordAccounts.migration`), against a stand-in source that records every call.
struct PasswordMigrationTests {
    /// A migration source that knows some accounts, and records calls and decoys by address.
    final class StandIn: PasswordMigrationSource {
        let accounts: [String: (password: String, account: MigratedAccount)]
        let calls = Mutex<[String]>([])
        let decoys = Mutex<[String]>([])

        init(_ accounts: [String: (password: String, account: MigratedAccount)]) {
            self.accounts = accounts
        }

        func account(email: EmailAddress, password: String) async -> MigratedAccount? {
            calls.withLock { $0.append(email.value) }
            guard let known = accounts[email.value], known.password == password else { return nil }
            return known.account
        }

        func decoy(email: EmailAddress) async { decoys.withLock { $0.append(email.value) } }
    }

    static let sub = "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f"
    static let password = "cognito horse battery"

    func fixture(_ standIn: StandIn) async throws -> (PasswordMigrationTests.Fixture, PasswordAccounts) {
        let fixture = try await PasswordAccountsTests.Fixture()
        var accounts = fixture.accounts
        accounts.migration = standIn
        return (fixture, accounts)
    }
    typealias Fixture = PasswordAccountsTests.Fixture

    static func standIn(
        verified: Bool = true, subject: String = sub, email: EmailAddress? = EmailAddress("ada@example.com")
    ) -> StandIn {
        StandIn([
            "ada@example.com": (
                password, MigratedAccount(subject: subject, email: email, emailVerified: verified, name: "Ada L")
            )
        ])
    }

    @Test func aNewAddressMovesWithItsPasswordOnceThenSignsInWithoutTheSource() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        let first = try await accounts.signIn(
            email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: "192.0.2.1")
        #expect(first.user.id == Self.sub, "the Cognito sub becomes the user's id")
        #expect(first.user.providers == ["email": "ada@example.com", "cognito": Self.sub])
        #expect(first.user.name == "Ada L" && !first.user.emailIsPending)
        let hash = try #require(try await PasswordCredentials.hash(userID: Self.sub, in: fixture.store))
        #expect(hash.hasPrefix("$scrypt$") && !hash.contains(Self.password))
        #expect(standIn.calls.withLock { $0 } == ["ada@example.com"])

        // Afterwards Gatehouse's own hash answers: the source is never asked again (only the
        // decoy call that keeps the time alike), and a wrong password is wrong.
        let again = try await accounts.signIn(
            email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: "192.0.2.1")
        #expect(again.user.id == Self.sub)
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(
                email: "ada@example.com", password: "nope", app: fixture.app, sourceIP: "192.0.2.1")
        }
        #expect(standIn.calls.withLock { $0 } == ["ada@example.com"])
        #expect(standIn.decoys.withLock { $0 } == ["ada@example.com", "ada@example.com"])
    }

    @Test func anImportedUserWithoutAPasswordGetsItsCognitoPassword() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        var imported = User(
            id: Self.sub, email: "ada@example.com", providers: ["email": "ada@example.com", "cognito": Self.sub],
            createdAt: 1000, updatedAt: 1000)
        imported.appMetadata = ["groups": ["admins"]]
        let result = try await fixture.accounts.sessions.users.importUser(
            imported, identities: [.email(EmailAddress("ada@example.com")!), .provider("cognito", subject: Self.sub)],
            passwordHash: nil)
        #expect(result == .imported)
        let signedIn = try await accounts.signIn(
            email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
        #expect(signedIn.user.id == Self.sub && signedIn.user.appMetadata == ["groups": ["admins"]])
        #expect(try await PasswordCredentials.hash(userID: Self.sub, in: fixture.store) != nil)
    }

    /// A wrong password, an unknown address, and an address Cognito never verified are all
    /// answered as an unknown address is without a migration: the same error, one call each,
    /// nothing stored.
    @Test func everyFailureAnswersAsAnUnknownAddress() async throws {
        for (standIn, email, password) in [
            (Self.standIn(), "ada@example.com", "wrong"), (Self.standIn(), "nobody@example.com", Self.password),
            (Self.standIn(verified: false), "ada@example.com", Self.password),
        ] {
            let (fixture, accounts) = try await fixture(standIn)
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(email: email, password: password, app: fixture.app, sourceIP: "192.0.2.1")
            }
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.accounts.signIn(
                    email: email, password: password, app: fixture.app, sourceIP: "192.0.2.1")
            }
            #expect(standIn.calls.withLock { $0 } == [email])
            #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
            #expect(try await fixture.store.scan("Passwords", limit: nil).isEmpty)
        }
    }

    /// The per-account lock applies before the source is asked: the sixth try in 15 minutes
    /// never reaches Cognito, even with the right password.
    @Test func theAccountsLockComesBeforeTheSource() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        for index in 0..<5 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(
                    email: "ada@example.com", password: "guess \(index)", app: fixture.app,
                    sourceIP: "198.51.100.\(index)")
            }
        }
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(
                email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: "198.51.100.9")
        }
        #expect(standIn.calls.withLock { $0.count } == 5)
        #expect(try await fixture.store.scan("Passwords", limit: nil).isEmpty)
    }

    /// A Gatehouse user whose `cognito` identity is another subject, or whose sign-up waits for
    /// its confirmation, is not given the source's password.
    @Test func anotherSubjectOrAPendingSignUpIsNotMoved() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        let other = User(
            id: "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11", email: "ada@example.com",
            providers: ["email": "ada@example.com", "cognito": "someone-else"], createdAt: 1000, updatedAt: 1000)
        _ = try await fixture.accounts.sessions.users.importUser(
            other, identities: [.email(EmailAddress("ada@example.com")!)], passwordHash: nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(
                email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
        }
        #expect(try await fixture.store.scan("Passwords", limit: nil).isEmpty)
    }

    /// A number's password sign-in never asks the source (Cognito is asked by address).
    @Test func aPhoneSignInDoesNotAskTheSource() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(phone: "+14155550100", password: Self.password, app: fixture.app, sourceIP: nil)
        }
        #expect(standIn.calls.withLock { $0 }.isEmpty && standIn.decoys.withLock { $0 }.isEmpty)
    }

    /// Imports `ada@example.com` confirmed, without a password, with `providers`.
    func importAda(_ fixture: Fixture, providers: [String: String], id: String = sub) async throws {
        let ada = User(id: id, email: "ada@example.com", providers: providers, createdAt: 1000, updatedAt: 1000)
        var identities: [SignInIdentity] = [.email(EmailAddress("ada@example.com")!)]
        if let subject = providers["cognito"] { identities.append(.provider("cognito", subject: subject)) }
        let result = try await fixture.accounts.sessions.users.importUser(
            ada, identities: identities, passwordHash: nil)
        #expect(result == .imported)
    }

    /// A pool that signs users in by a username (no `UsernameAttributes`) may hold an account
    /// named `ada@example.com` whose verified address is someone else's: its password moves to
    /// no one, neither to the Gatehouse user of the address nor to a new one.
    @Test func anAccountWhoseAddressThereIsAnotherIsNotMoved() async throws {
        for email in [EmailAddress("mallory@evil.example"), nil] {
            let (fresh, freshAccounts) = try await fixture(Self.standIn(email: email))
            await #expect(throws: AccountError.invalidCredentials) {
                try await freshAccounts.signIn(
                    email: "ada@example.com", password: Self.password, app: fresh.app, sourceIP: nil)
            }
            #expect(try await fresh.store.scan("Users", limit: nil).isEmpty)
            #expect(try await fresh.store.scan("Passwords", limit: nil).isEmpty)

            let (fixture, accounts) = try await fixture(Self.standIn(email: email))
            try await importAda(fixture, providers: ["email": "ada@example.com", "cognito": Self.sub])
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(
                    email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
            }
            #expect(try await PasswordCredentials.hash(userID: Self.sub, in: fixture.store) == nil)
        }
    }

    /// A Gatehouse user that never came from Cognito (a magic link's, Apple's) has no `cognito`
    /// identity: a Cognito account with its address does not set its first password.
    @Test func aUserWithoutACognitoIdentityIsNotMoved() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        let id = "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11"
        try await importAda(fixture, providers: ["email": "ada@example.com", "apple": "001.a"], id: id)
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(
                email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
        }
        #expect(standIn.calls.withLock { $0 } == ["ada@example.com"])
        #expect(try await PasswordCredentials.hash(userID: id, in: fixture.store) == nil)
    }

    /// Cognito's sub is compared without case (the import keeps it lower-cased), and a user the
    /// migration creates keeps it lower-cased too.
    @Test func theSubjectIsComparedAndStoredLowerCased() async throws {
        let upper = Self.sub.uppercased()
        let (imported, importedAccounts) = try await fixture(Self.standIn(subject: upper))
        try await importAda(imported, providers: ["email": "ada@example.com", "cognito": Self.sub])
        let moved = try await importedAccounts.signIn(
            email: "ada@example.com", password: Self.password, app: imported.app, sourceIP: nil)
        #expect(moved.user.id == Self.sub)
        #expect(try await PasswordCredentials.hash(userID: Self.sub, in: imported.store) != nil)

        let (fixture, accounts) = try await fixture(Self.standIn(subject: upper))
        let created = try await accounts.signIn(
            email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
        #expect(created.user.id == Self.sub)
        #expect(created.user.providers == ["email": "ada@example.com", "cognito": Self.sub])
    }

    /// An address with a Gatehouse password asks the source about that same address (the
    /// decoy), so that the source's time is alike for every address.
    @Test func theDecoyAsksAboutTheAddressSignedInWith() async throws {
        let standIn = Self.standIn()
        let (fixture, accounts) = try await fixture(standIn)
        _ = try await accounts.signIn(
            email: "ada@example.com", password: Self.password, app: fixture.app, sourceIP: nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await accounts.signIn(email: "ada@EXAMPLE.com", password: "wrong", app: fixture.app, sourceIP: nil)
        }
        #expect(standIn.calls.withLock { $0 } == ["ada@example.com"])
        #expect(standIn.decoys.withLock { $0 } == ["ada@example.com"])
    }
}
