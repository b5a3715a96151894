import AWSCognito
import AWSSigning
import AuthKit
import GatehouseJSON
import Synchronization
import TestServers
import Testing

/// Cognito's calls as Gatehouse makes them, against a recording stand-in: the migration's
/// `InitiateAuth` and `GetUser` unsigned and never logging the password, the CLI's listing
/// signed and paged.
struct CognitoPasswordMigrationTests {
    static let pool = "eu-west-1_AbC123"
    static let password = "Ada cognito password 1!"

    /// A stand-in that signs `ada@example.com` in with `password` and answers `GetUser` with
    /// `email` as the user's address there.
    static func standIn(
        status: Int = 200, email: String = "ada@example.com", verified: String = "true"
    ) async throws -> RecordingServer {
        try await RecordingServer.start { request in
            let body = (try? JSONValue(parsing: request.body)) ?? .null
            switch request.header("x-amz-target") {
            case "AWSCognitoIdentityProviderService.InitiateAuth":
                guard status == 200 else { return (status, #"{"__type": "InternalErrorException"}"#) }
                guard body["AuthParameters"]?["USERNAME"] == "ada@example.com",
                    body["AuthParameters"]?["PASSWORD"] == .string(password)
                else { return (400, #"{"__type": "NotAuthorizedException", "message": "Incorrect"}"#) }
                return (200, #"{"AuthenticationResult": {"AccessToken": "access-1", "IdToken": "id"}}"#)
            case "AWSCognitoIdentityProviderService.GetUser":
                return (
                    200,
                    #"{"Username": "u", "UserAttributes": [{"Name": "sub", "Value": "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f"}, "#
                        + #"{"Name": "email", "Value": "\#(email)"}, {"Name": "email_verified", "Value": "\#(verified)"}, "#
                        + #"{"Name": "name", "Value": "Ada L"}]}"#
                )
            default: return (400, #"{"__type": "UnknownOperationException"}"#)
            }
        }
    }

    /// The lines a migration reports.
    final class Reports: Sendable {
        let lines = Mutex<[String]>([])
    }

    static func migration(_ server: RecordingServer, reports: Reports = Reports()) throws -> CognitoPasswordMigration {
        try #require(
            try CognitoPasswordMigration.configured(
                [
                    "COGNITO_MIGRATION_POOL": pool, "COGNITO_MIGRATION_CLIENT_ID": "client-1",
                    "AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": server.baseURL,
                ], report: { line in reports.lines.withLock { $0.append(line) } }))
    }

    @Test func theSettingsSayWhetherAndWhere() throws {
        #expect(try CognitoPasswordMigration.configured([:]) == nil)
        #expect(try CognitoPasswordMigration.configured(["COGNITO_MIGRATION_POOL": ""]) == nil)
        #expect(throws: SettingsError.missing("COGNITO_MIGRATION_CLIENT_ID")) {
            _ = try CognitoPasswordMigration.configured(["COGNITO_MIGRATION_POOL": Self.pool])
        }
        #expect(throws: SettingsError.self) {
            _ = try CognitoPasswordMigration.configured([
                "COGNITO_MIGRATION_POOL": "not a pool", "COGNITO_MIGRATION_CLIENT_ID": "c",
            ])
        }
        let deployed = try CognitoUserPool(poolID: Self.pool, environment: [:])
        #expect(deployed.region == "eu-west-1" && deployed.endpoint == "https://cognito-idp.eu-west-1.amazonaws.com")
    }

    @Test func aRightPasswordIsOneUnsignedInitiateAuthThenGetUser() async throws {
        let server = try await Self.standIn()
        let reports = Reports()
        let migration = try Self.migration(server, reports: reports)
        let account = await migration.account(email: EmailAddress("ada@example.com")!, password: Self.password)
        #expect(
            account
                == MigratedAccount(
                    subject: "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f", email: EmailAddress("ada@example.com"),
                    emailVerified: true, name: "Ada L"))
        let wrong = await migration.account(email: EmailAddress("ada@example.com")!, password: "nope")
        #expect(wrong == nil)
        await server.stop()
        let requests = server.requests
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.header("authorization") == nil }, "public calls: no SigV4")
        let first = try JSONValue(parsing: requests[0].body)
        #expect(first["AuthFlow"] == "USER_PASSWORD_AUTH" && first["ClientId"] == "client-1")
        #expect(first["AuthParameters"]?["SECRET_HASH"] == nil)
        #expect(try JSONValue(parsing: requests[1].body) == ["AccessToken": "access-1"])
        // Cognito's refusal of a password is no failure worth a line.
        #expect(reports.lines.withLock { $0 }.isEmpty)
    }

    /// Cognito signs in a username: in a pool without `UsernameAttributes` the username
    /// `ada@example.com` may be an account whose verified address is someone else's. Its
    /// password moves nowhere: the address there must be the one signed in with.
    @Test func anAccountWhoseAddressIsAnotherIsNoAccount() async throws {
        for (email, verified, moved) in [
            ("mallory@evil.example", "true", false), ("ada@EXAMPLE.com", "true", true), ("", "true", false),
            ("Ada@example.com", "true", false), ("ada@example.com", "false", false),
        ] {
            let server = try await Self.standIn(email: email, verified: verified)
            let migration = try Self.migration(server)
            let account = await migration.account(email: EmailAddress("ada@example.com")!, password: Self.password)
            await server.stop()
            #expect((account != nil) == moved, "\(email)")
            #expect(server.requests.count == 2)
        }
    }

    @Test func aFailureIsReportedByItsCodeNeverThePasswordAndADecoyAsksAboutTheSameAddress() async throws {
        let server = try await Self.standIn(status: 500)
        let reports = Reports()
        let migration = try Self.migration(server, reports: reports)
        #expect(await migration.account(email: EmailAddress("ada@example.com")!, password: Self.password) == nil)
        await migration.decoy(email: EmailAddress("ada@example.com")!)
        await server.stop()
        let lines = reports.lines.withLock { $0 }
        #expect(lines.first == "Cognito InitiateAuth answered 500 InternalErrorException", "\(lines)")
        #expect(!lines.joined().contains(Self.password) && !lines.joined().contains("ada@example.com"))
        let decoy = try JSONValue(parsing: try #require(server.requests.last).body)
        #expect(decoy["AuthParameters"]?["USERNAME"] == "ada@example.com")
        #expect(decoy["AuthParameters"]?["PASSWORD"] != .string(Self.password))
        #expect(decoy["AuthParameters"]?["PASSWORD"]?.stringValue?.count ?? 0 >= 24)
    }

    @Test func theListingIsSignedAndFollowsItsPaginationToken() async throws {
        let server = try await RecordingServer.start { request in
            let body = (try? JSONValue(parsing: request.body)) ?? .null
            if body["PaginationToken"] == nil {
                return (200, #"{"Users": [{"Username": "a"}], "PaginationToken": "next"}"#)
            }
            return (200, #"{"Users": [{"Username": "b"}]}"#)
        }
        let pool = try CognitoUserPool(
            poolID: Self.pool, environment: ["AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": server.baseURL])
        let users = try await pool.users(credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret"))
        await server.stop()
        #expect(users.map { $0["Username"] } == ["a", "b"])
        #expect(server.requests.count == 2)
        for request in server.requests {
            #expect(request.header("x-amz-target") == "AWSCognitoIdentityProviderService.ListUsers")
            #expect(request.header("authorization")?.contains("/eu-west-1/cognito-idp/aws4_request") == true)
        }
        #expect(try JSONValue(parsing: server.requests[1].body)["PaginationToken"] == "next")
    }
}
