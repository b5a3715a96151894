import AuthKit
import GatehouseJSON
import Store
import Testing

struct AuthCodesTests {
    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let codes: AuthCodes
        let user: User

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            codes = AuthCodes(store: store, clock: clock)
            let email = try #require(EmailAddress("ada@example.com"))
            user = try await UserDirectory(store: store, clock: clock).findOrCreate(email: email, name: "Ada").user
        }
    }

    @Test func aCodeIsConsumedOnceByItsAppWithItsGrant() async throws {
        let setup = try await Setup()
        let code = try await setup.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: true)
        #expect(code.utf8.count == 43)
        #expect(code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })

        // Only its SHA-256 is stored.
        let stored = try await setup.store.scan("AuthCodes", limit: nil)
        #expect(stored.map { $0["code"] } == [.string(AuthCodes.hash(code))])
        #expect(!JSONValue.object(stored[0]).serialized.contains(code))

        let grant = try await setup.codes.consume(code, app: "demo")
        #expect(
            grant
                == AuthCodeGrant(
                    app: "demo", userID: setup.user.id, email: "ada@example.com", name: "Ada", provider: "email",
                    isNewUser: true, expiresAt: (SessionFixtures.start + 60) * 1000,
                    appMetadata: ["provider": "email", "providers": ["email"]]))
        await #expect(throws: SessionError.invalidCode) { try await setup.codes.consume(code, app: "demo") }
        await #expect(throws: SessionError.invalidCode) { try await setup.codes.consume("made-up", app: "demo") }
        #expect(try await setup.store.scan("AuthCodes", limit: nil).isEmpty)
    }

    /// Another app's code is refused and spent: nobody learns whose it is by trying twice.
    @Test func anotherAppsCodeIsSpent() async throws {
        let setup = try await Setup()
        let code = try await setup.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: true)
        await #expect(throws: SessionError.wrongApp) { try await setup.codes.consume(code, app: "other") }
        await #expect(throws: SessionError.invalidCode) { try await setup.codes.consume(code, app: "demo") }
    }

    /// A code lives 60 seconds: usable at 59, refused from 60 on (and at 61, when the store no
    /// longer returns it), also when minted between two seconds.
    @Test(arguments: [
        (0.0, 59.0, true), (0, 59.999, true), (0, 60, false), (0, 61, false), (0.5, 60.4, true),
        (0.5, 60.5, false),
    ])
    func expiryIsExactToTheMillisecond(mintedAt: Double, consumedAt: Double, works: Bool) async throws {
        let setup = try await Setup()
        setup.clock.set(SessionFixtures.start + mintedAt)
        let code = try await setup.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: false)
        setup.clock.set(SessionFixtures.start + consumedAt)
        if works {
            #expect(try await setup.codes.consume(code, app: "demo").userID == setup.user.id)
        } else {
            await #expect(throws: SessionError.invalidCode) { try await setup.codes.consume(code, app: "demo") }
        }
    }

    /// Fifty exchanges of one code at once: exactly one gets the grant.
    @Test func fiftyConcurrentConsumesHaveOneWinner() async throws {
        let setup = try await Setup()
        let code = try await setup.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: false)
        let codes = setup.codes
        let outcomes = await withTaskGroup(of: Result<AuthCodeGrant, SessionError>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do { return .success(try await codes.consume(code, app: "demo")) } catch let error as SessionError {
                        return .failure(error)
                    } catch { return .failure(.userNotFound) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1)
        #expect(outcomes.filter { $0 == .failure(.invalidCode) }.count == 49)
    }
}
