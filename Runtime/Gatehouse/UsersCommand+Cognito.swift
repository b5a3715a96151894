import AWSCognito
import AWSSigning
import Foundation
import GatehouseJSON
import SupabaseImport

extension UsersCommand.Import {
    /// What `--from-cognito` does, for the command's help.
    static let cognitoHelp = """
        --from-cognito POOL lists every user of the Cognito user pool POOL (ListUsers) and its \
        groups (ListGroups, ListUsersInGroup: groups become app_metadata.groups), with the \
        credentials and AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER of the environment (the \
        region is the pool id's), and imports each without a password (Cognito exports none): \
        its sub as its id and cognito identity, its address and number confirmed as Cognito \
        verified them, its names in user_metadata. A user Cognito disabled is left out.
        """

    /// The rows to import: the file's, or the Cognito pool's users.
    func export() async throws -> SupabaseExport {
        if let cognitoPool { return try await Self.cognito(cognitoPool) }
        guard let file, let bytes = FileManager.default.contents(atPath: file) else {
            throw UsageFailure("cannot read \(file ?? "")")
        }
        return try SupabaseExport(bytes: Array(bytes))
    }

    /// Every user of the Cognito pool `poolID` as a row of Supabase's export (`CognitoUserRow`).
    static func cognito(_ poolID: String) async throws -> SupabaseExport {
        let environment = ProcessInfo.processInfo.environment
        let pool = try CognitoUserPool(poolID: poolID, environment: environment)
        guard let credentials = AWSCredentials(environment: environment) else {
            throw UsageFailure("--from-cognito needs AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
        }
        let started = ContinuousClock.now
        let users = try await pool.users(credentials: credentials)
        let groups = try await pool.groupsBySubject(credentials: credentials)
        Console.error("Cognito: " + rate(rows: users.count, elapsed: ContinuousClock.now - started))
        return SupabaseExport(
            objects: users.map { user in
                let sub = (user["Attributes"]?.arrayValue ?? []).first { $0["Name"] == "sub" }?["Value"]?.stringValue
                return CognitoUserRow.row(user, groups: sub.map { groups[$0.lowercased()] ?? [] } ?? [])
            })
    }
}
