import AWSCalls
import AWSSigning
import GatehouseJSON
import OutboundHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Cognito user pool, as Gatehouse moves its users: its users and groups read with the
/// caller's credentials, signed (`ListUsers`, `ListGroups`, `ListUsersInGroup`: the CLI's
/// `users import --from-cognito`), and a password checked at one of its app clients
/// (`InitiateAuth` with `USER_PASSWORD_AUTH`, then `GetUser` with the access token it gave),
/// which are public calls, unsigned. The region is the pool id's prefix (`eu-west-1_AbC…`); the
/// endpoint is Cognito's there, or `AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER` (then
/// `AWS_ENDPOINT_URL`), as the AWS SDKs read them, for a local one such as moto.
public struct CognitoUserPool: Sendable {
    public let poolID: String
    public let region: String
    public let endpoint: String
    let http: OutboundHTTPClient

    /// Why a pool cannot be used.
    public struct Unusable: Error, CustomStringConvertible {
        public let description: String
    }

    public init(poolID: String, environment: [String: String], http: OutboundHTTPClient = .shared) throws(Unusable) {
        guard let separator = poolID.firstIndex(of: "_"), separator != poolID.startIndex,
            poolID[poolID.index(after: separator)...].allSatisfy({ $0.isLetter || $0.isNumber }),
            poolID[..<separator].allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" })
        else { throw Unusable(description: "\(poolID.prefix(80)) is not a user pool id (REGION_ID)") }
        self.poolID = poolID
        region = String(poolID[..<separator])
        let override = [
            environment["AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER"], environment["AWS_ENDPOINT_URL"],
        ].compactMap { $0 }.first { !$0.isEmpty }
        endpoint = override ?? "https://cognito-idp.\(region).amazonaws.com"
        self.http = http
    }

    /// The JSON protocol's target of `operation`.
    static func target(_ operation: String) -> String { "AWSCognitoIdentityProviderService.\(operation)" }

    /// Calls `operation` signed with `credentials`; its answer.
    func signed(
        _ operation: String, _ body: [String: JSONValue], credentials: AWSCredentials
    ) async throws -> JSONValue {
        let call = AWSCall(
            service: "cognito-idp", region: region, endpoint: endpoint, credentials: credentials, http: http)
        let response = try await call.post(
            operation: operation, path: "/",
            headers: [
                (name: "content-type", value: "application/x-amz-json-1.1"),
                (name: "x-amz-target", value: Self.target(operation)),
            ], body: JSONValue.object(body).serializedBytes)
        return try JSONValue(parsing: response.body)
    }

    /// Calls the public `operation` unsigned, within `timeout`: its status and answer.
    func unsigned(
        _ operation: String, _ body: [String: JSONValue], timeout: Duration
    ) async throws -> (
        status: Int, body: JSONValue?
    ) {
        let response = try await http.sendOnOwnThread(
            OutboundRequest(
                method: "POST", url: endpoint + "/",
                headers: [
                    (name: "content-type", value: "application/x-amz-json-1.1"),
                    (name: "x-amz-target", value: Self.target(operation)),
                ], body: JSONValue.object(body).serializedBytes), timeout: timeout, maximumBytes: 1 << 16)
        return (response.status, try? JSONValue(parsing: response.body))
    }

    /// Every user of the pool (`ListUsers`' `Users` members), 60 a call, following
    /// `PaginationToken`.
    public func users(credentials: AWSCredentials) async throws -> [JSONValue] {
        var users: [JSONValue] = []
        var token: String?
        repeat {
            var body: [String: JSONValue] = ["UserPoolId": .string(poolID), "Limit": 60]
            if let token { body["PaginationToken"] = .string(token) }
            let page = try await signed("ListUsers", body, credentials: credentials)
            users += page["Users"]?.arrayValue ?? []
            token = page["PaginationToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        return users
    }

    /// Each user's groups by its `sub`, from `ListGroups` and each group's `ListUsersInGroup`
    /// (60 a call, following `NextToken`): a call a group and a page rather than
    /// `AdminListGroupsForUser` for every user.
    public func groupsBySubject(credentials: AWSCredentials) async throws -> [String: [String]] {
        var groups: [String] = []
        var token: String?
        repeat {
            var body: [String: JSONValue] = ["UserPoolId": .string(poolID), "Limit": 60]
            if let token { body["NextToken"] = .string(token) }
            let page = try await signed("ListGroups", body, credentials: credentials)
            groups += (page["Groups"]?.arrayValue ?? []).compactMap { $0["GroupName"]?.stringValue }
            token = page["NextToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        var bySubject: [String: [String]] = [:]
        for group in groups.sorted() {
            for member in try await members(of: group, credentials: credentials) {
                bySubject[member, default: []].append(group)
            }
        }
        return bySubject
    }

    /// The `sub` of each user in `group`.
    func members(of group: String, credentials: AWSCredentials) async throws -> [String] {
        var subjects: [String] = []
        var token: String?
        repeat {
            var body: [String: JSONValue] = ["UserPoolId": .string(poolID), "GroupName": .string(group), "Limit": 60]
            if let token { body["NextToken"] = .string(token) }
            let page = try await signed("ListUsersInGroup", body, credentials: credentials)
            for user in page["Users"]?.arrayValue ?? [] {
                let sub = (user["Attributes"]?.arrayValue ?? []).first { $0["Name"] == "sub" }?["Value"]?.stringValue
                if let sub { subjects.append(sub.lowercased()) }
            }
            token = page["NextToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        return subjects
    }
}
