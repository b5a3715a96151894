import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// The native Sign in with Apple flow, answered as `Exchange` answers, on two routes with one
/// body reader:
///
/// - `POST /auth/verify-apple` `{identityToken, authorizationCode, user, fullName?, nonce?, app?}`
///   (the central sign-in design's);
/// - `POST /auth/apple` `{identityToken, fullName?, email?}` (the phone-first design's).
///
/// `user`, when sent, must be the token's subject. `fullName` is the name components Apple
/// gives (`givenName`, `middleName`, `familyName`; the rest ignored). `email` is kept, as an
/// unverified contact address, only for a new user whose token has none; it never links an
/// account. `app` defaults to `DEFAULT_APP`. `authorizationCode` is accepted and never logged
/// (it is not redeemed here).
struct VerifyAppleHandler: HTTPHandler {
    let apple: AppleSignIn
    let defaultApp: DefaultApp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request, requiringJSONContentType: true)
        let session = try await apple.signIn(
            identityToken: body.string("identityToken", maximumLength: 8192),
            user: body.optionalString("user", maximumLength: 256),
            nonce: body.optionalString("nonce", maximumLength: 256), fullName: try Self.fullName(body),
            contactEmail: try Self.email(body),
            app: defaultApp.resolve(body.optionalString("app", maximumLength: 64)))
        context.logger.info(
            "apple sign-in", metadata: ["userId": .string(session.user.id), "isNewUser": "\(session.user.isNewUser)"])
        return .json(200, session.json)
    }

    /// `fullName`'s given, middle and family names, joined; nil when absent or empty.
    static func fullName(_ body: JSONRequestBody) throws(RequestBodyError) -> String? {
        switch body.object["fullName"] {
        case nil, .null?: return nil
        case .object(let parts)?:
            var names: [String] = []
            for name in ["givenName", "middleName", "familyName"] {
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

    /// `email`, an address or nothing.
    static func email(_ body: JSONRequestBody) throws(RequestBodyError) -> EmailAddress? {
        guard let text = try body.optionalString("email", maximumLength: 320) else { return nil }
        guard let address = EmailAddress(text) else { throw .field("email", "is not an email address") }
        return address
    }
}
