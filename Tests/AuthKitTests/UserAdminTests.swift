import AuthKit
import Foundation
import GatehouseJSON
import Store
import StoreCore
import Testing

/// The admin operations on users (`UserAdmin`) that the admin API and `gatehouse users` share.
struct UserAdminTests {
    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let admin: UserAdmin
    let policy = PasswordPolicy()

    init() async throws {
        store = try SessionFixtures.store(clock: clock)
        try await AppRegistry(store: store).ensureDemoApp()
        admin = UserAdmin(
            store: store, clock: clock, actor: .serverKey(id: "abc", app: "demo"),
            hasher: PasswordHasher(parameters: .init(logN: 4, r: 8, p: 1)))
    }

    @Test func createdUsersListNewestFirstInPages() async throws {
        var made: [User] = []
        for index in 0..<5 {
            clock.set(SessionFixtures.start + Double(index))
            made.append(
                try await admin.create(
                    AdminUserFields(email: "user\(index)@example.com", emailConfirm: true), policy: policy))
        }
        let (first, total) = try await admin.list(page: 1, perPage: 2)
        #expect(total == 5)
        #expect(first.map(\.id) == [made[4].id, made[3].id])
        #expect(try await admin.list(page: 3, perPage: 2).users.map(\.id) == [made[0].id])
        #expect(try await admin.list(page: 4, perPage: 2).users.isEmpty)
        await #expect(throws: UserAdminError.emailExists) {
            try await admin.create(AdminUserFields(email: "user1@example.com"), policy: policy)
        }
        await #expect(throws: UserAdminError.invalid("Cannot create a user without either an email or phone")) {
            try await admin.create(AdminUserFields(), policy: policy)
        }
    }

    @Test func aCreatedUserSignsInWithItsPasswordAndMetadataMerges() async throws {
        let user = try await admin.create(
            AdminUserFields(
                email: "ada@example.com", password: "correct horse battery", emailConfirm: true,
                userMetadata: ["name": "Ada", "plan": "free"], appMetadata: ["role": "admin", "provider": "x"]),
            policy: policy)
        #expect(user.emailConfirmedAt != nil && !user.emailIsPending)
        #expect(user.appMetadata == ["role": "admin"])
        #expect(try await PasswordCredentials.hash(userID: user.id, in: store) != nil)
        let updated = try await admin.updateUser(
            id: user.id, AdminUserFields(userMetadata: ["plan": "pro", "name": .null]), policy: policy)
        #expect(updated.metadata == ["plan": "pro"])
        await #expect(throws: UserAdminError.unsupported("changing a user's email address by the admin API")) {
            try await admin.updateUser(id: user.id, AdminUserFields(email: "other@example.com"), policy: policy)
        }
        await #expect(throws: AccountError.self) {
            try await admin.updateUser(id: user.id, AdminUserFields(password: "short"), policy: policy)
        }
    }

    @Test func aSoftDeleteIsRefusedByNameAndADeleteFreesTheAddress() async throws {
        let user = try await admin.create(AdminUserFields(email: "ada@example.com", emailConfirm: true), policy: policy)
        await #expect(throws: UserAdminError.unsupported("a soft delete (should_soft_delete); delete the user")) {
            try await admin.delete(id: user.id, soft: true)
        }
        #expect(try await admin.user(id: user.id).id == user.id)
        try await admin.delete(id: user.id)
        await #expect(throws: UserAdminError.userNotFound) { try await admin.user(id: user.id) }
        await #expect(throws: UserAdminError.userNotFound) { try await admin.delete(id: user.id) }
        _ = try await admin.create(AdminUserFields(email: "ada@example.com"), policy: policy)
    }

    @Test func goDurationsReadAsSupabaseWritesThem() {
        #expect(GoDuration.seconds("24h") == 86_400)
        #expect(GoDuration.seconds("876000h") == 3_153_600_000)
        #expect(GoDuration.seconds("1h30m") == 5400)
        #expect(GoDuration.seconds("1.5h") == 5400)
        #expect(GoDuration.seconds("250ms") == 0.25)
        #expect(GoDuration.seconds("none") == nil)
        #expect(GoDuration.seconds("24") == nil)
        #expect(GoDuration.seconds("") == nil)
    }
}

extension UserAdminTests {
    /// An invitation to an address someone signed up with but never confirmed drops that
    /// sign-up's password (a squatter's, maybe), by `invite` and by `generate_link` alike: the
    /// invitee, confirming by the mailed link or code, gets an account no one else can sign in to.
    @Test func anInvitationDropsAPendingSignUpsPassword() async throws {
        let app = try #require(try await AppRegistry(store: store).app(id: "demo"))
        for (index, viaLink) in [false, true].enumerated() {
            let address = "victim\(index)@example.com"
            let squatted = try await admin.create(
                AdminUserFields(email: address, password: "squatters passphrase 1"), policy: policy)
            let squattersHash = try await PasswordCredentials.hash(userID: squatted.id, in: store)
            #expect(squatted.emailIsPending && squattersHash != nil)
            let sender = OutboxSender(store: store, clock: clock)
            let links = EmailTokens(store: store, clock: clock, sender: sender, issuer: "http://127.0.0.1:3000")
            let invited: User
            if viaLink {
                invited = try await admin.generateLink(
                    .invite, email: address, app: app, redirectTo: nil, metadata: nil, links: links,
                    magicLinks: MagicLinks(
                        store: store, clock: clock, sender: sender, issuer: "http://127.0.0.1:3000")
                ).user
            } else {
                invited = try await admin.invite(email: address, app: app, redirectTo: nil, metadata: nil, links: links)
                    .user
            }
            #expect(invited.id == squatted.id)
            #expect(try await PasswordCredentials.hash(userID: squatted.id, in: store) == nil, "\(viaLink)")
        }
    }
}
