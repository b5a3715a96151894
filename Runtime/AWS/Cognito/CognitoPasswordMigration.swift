import AuthKit
import GatehouseJSON

/// Users moved from a Cognito user pool at their first password sign-in
/// (`PasswordMigrationSource`): with `COGNITO_MIGRATION_POOL` (the pool id) and
/// `COGNITO_MIGRATION_CLIENT_ID` (an app client of it that allows `ALLOW_USER_PASSWORD_AUTH` and
/// has no client secret: `SECRET_HASH` is not sent), a password is tried with `InitiateAuth`
/// (`USER_PASSWORD_AUTH`, the address as `USERNAME`: a pool whose usernames are addresses or
/// that takes the address as an alias), and, when Cognito signs the user in, `GetUser` with the
/// access token it gave reads the user's `sub`, `email`, `email_verified` and name: the account
/// is moved only when its `email` is the address signed in with and is verified (Cognito signs
/// in a username, which in a pool of free-text usernames may be someone else's address). Both
/// are public calls: no IAM permission, no credentials. Any other answer (a wrong password, an unknown
/// user, a challenge such as MFA or `NEW_PASSWORD_REQUIRED`, Cognito unreachable) is no account;
/// a failure other than Cognito's refusal goes to `report` (its name and status, never the
/// address or the password).
public struct CognitoPasswordMigration: PasswordMigrationSource {
    public let pool: CognitoUserPool
    public let clientID: String
    /// How long each call may take: short (2 s by default), since while the migration is on every
    /// password sign-in waits for Cognito's answer (or the decoy's).
    let timeout: Duration
    /// Where a failure that is not Cognito's refusal of the password is told (a log line).
    let report: @Sendable (String) -> Void

    public init(
        pool: CognitoUserPool, clientID: String, timeout: Duration = .seconds(2),
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.pool = pool
        self.clientID = clientID
        self.timeout = timeout
        self.report = report
    }

    /// The migration `environment` asks for: nil when `COGNITO_MIGRATION_POOL` is empty or
    /// unset; `SettingsError` when the pool is set without `COGNITO_MIGRATION_CLIENT_ID`, or is
    /// not a pool id.
    public static func configured(
        _ environment: [String: String], report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> CognitoPasswordMigration? {
        guard let poolID = environment["COGNITO_MIGRATION_POOL"], !poolID.isEmpty else { return nil }
        let reader = EnvironmentReader(environment: environment)
        let clientID = try reader.required("COGNITO_MIGRATION_CLIENT_ID")
        do {
            return CognitoPasswordMigration(
                pool: try CognitoUserPool(poolID: poolID, environment: environment), clientID: clientID,
                report: report)
        } catch {
            throw SettingsError.invalid("COGNITO_MIGRATION_POOL", error.description)
        }
    }

    public func account(email: EmailAddress, password: String) async -> MigratedAccount? {
        guard let token = await accessToken(username: email.value, password: password) else { return nil }
        do {
            let answer = try await pool.unsigned("GetUser", ["AccessToken": .string(token)], timeout: timeout)
            guard answer.status == 200, let body = answer.body else {
                report("Cognito GetUser answered \(answer.status) \(answer.body.map { Self.code($0) } ?? "")")
                return nil
            }
            return Self.account(body, email: email)
        } catch {
            report("Cognito GetUser failed: \(LogSafe.description(of: error))")
            return nil
        }
    }

    /// `InitiateAuth` for `email` itself with a random password: Cognito is asked about the same
    /// username as for an address without a Gatehouse password, so its answer (a wrong password,
    /// or an unknown user, which `PreventUserExistenceErrors` makes alike) takes the same time.
    public func decoy(email: EmailAddress) async {
        _ = await accessToken(username: email.value, password: RandomToken.urlSafe(byteCount: 18))
    }

    /// `InitiateAuth`'s access token when Cognito signs `username` in with `password` at once.
    func accessToken(username: String, password: String) async -> String? {
        let body: [String: JSONValue] = [
            "AuthFlow": "USER_PASSWORD_AUTH", "ClientId": .string(clientID),
            "AuthParameters": ["USERNAME": .string(username), "PASSWORD": .string(password)],
        ]
        do {
            let answer = try await pool.unsigned("InitiateAuth", body, timeout: timeout)
            guard answer.status == 200 else {
                let code = answer.body.map { Self.code($0) } ?? ""
                if !Self.refusals.contains(code) { report("Cognito InitiateAuth answered \(answer.status) \(code)") }
                return nil
            }
            // A challenge (MFA, a new password) has no `AuthenticationResult`: not moved.
            return answer.body?["AuthenticationResult"]?["AccessToken"]?.stringValue
        } catch {
            report("Cognito InitiateAuth failed: \(LogSafe.description(of: error))")
            return nil
        }
    }

    /// Cognito's answers to a wrong password or an unknown user: not worth a log line.
    static let refusals: Set<String> = [
        "NotAuthorizedException", "UserNotFoundException", "UserNotConfirmedException",
        "PasswordResetRequiredException",
    ]

    /// The account `GetUser`'s answer describes, signed in as `email`; nil without a `sub`, or
    /// unless its `email` attribute is `email` (normalised) and `email_verified` is true.
    static func account(_ body: JSONValue, email: EmailAddress) -> MigratedAccount? {
        var attributes: [String: String] = [:]
        for attribute in body["UserAttributes"]?.arrayValue ?? [] {
            if let name = attribute["Name"]?.stringValue, let value = attribute["Value"]?.stringValue {
                attributes[name] = value
            }
        }
        guard let sub = attributes["sub"], !sub.isEmpty,
            attributes["email"].flatMap({ EmailAddress($0) }) == email, attributes["email_verified"] == "true"
        else { return nil }
        let joined = [attributes["given_name"], attributes["family_name"]].compactMap { $0 }.filter { !$0.isEmpty }
        let name =
            attributes["name"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (joined.isEmpty ? nil : joined.joined(separator: " "))
        return MigratedAccount(
            subject: sub, email: email, emailVerified: true,
            name: name.map { String($0.prefix(200)) })
    }

    /// AWS's error code in a JSON error body (`__type`).
    static func code(_ body: JSONValue) -> String {
        let type = body["__type"]?.stringValue ?? body["code"]?.stringValue ?? "unknown"
        return String(type.split(separator: "#").last ?? "").prefix(80).description
    }
}
