import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// `POST /auth/verify-apple` `{identityToken, authorizationCode, user, fullName?: {givenName,
/// familyName}, nonce?, app}`: the native Sign in with Apple flow, answered as `Exchange`
/// answers. `authorizationCode` is accepted and never logged (it is not redeemed here).
struct VerifyAppleHandler: HTTPHandler {
    let apple: AppleSignIn

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request, requiringJSONContentType: true)
        let session = try await apple.signIn(
            identityToken: body.string("identityToken", maximumLength: 8192),
            user: body.string("user", maximumLength: 256),
            nonce: body.optionalString("nonce", maximumLength: 256), fullName: try Self.fullName(body),
            app: body.string("app", maximumLength: 64))
        context.logger.info(
            "apple sign-in", metadata: ["userId": .string(session.user.id), "isNewUser": "\(session.user.isNewUser)"])
        return .json(200, session.json)
    }

    /// `fullName`'s given and family names, joined; nil when absent or empty.
    static func fullName(_ body: JSONRequestBody) throws(RequestBodyError) -> String? {
        switch body.object["fullName"] {
        case nil, .null?: return nil
        case .object(let parts)?:
            var names: [String] = []
            for name in ["givenName", "familyName"] {
                switch parts[name] {
                case nil, .null?: continue
                case .string(let text)? where text.utf8.count <= 100: if !text.isEmpty { names.append(text) }
                default: throw .field("fullName.\(name)", "must be a string of at most 100 bytes")
                }
            }
            return names.isEmpty ? nil : names.joined(separator: " ")
        default: throw .field("fullName", "must be an object")
        }
    }
}
