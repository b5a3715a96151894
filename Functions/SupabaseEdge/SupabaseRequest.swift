import AuthKit
import GatehouseJSON
import HTTPEdge

extension HTTPRequest {
    /// The app the `apikey` header names (its publishable key): `SupabaseError.invalidAPIKey`
    /// without one that names a registered app.
    public func supabaseApp(in apps: AppRegistry) async throws -> App {
        guard let key = header("apikey"), !key.isEmpty, key.utf8.count <= 200,
            let app = try await apps.app(publishableKey: key)
        else { throw SupabaseError.invalidAPIKey }
        return app
    }

    /// The `redirect_to` query parameter Supabase's clients send with links, when present.
    public var redirectTo: String? {
        queryParameters["redirect_to"].flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension JSONRequestBody {
    /// An optional JSON object member (`data`): nil when absent or null.
    public func optionalObject(_ field: String) throws(RequestBodyError) -> [String: JSONValue]? {
        switch object[field] {
        case nil, .null?: return nil
        case .object(let members)?: return members
        default: throw .field(field, "must be an object")
        }
    }

    /// The body's `phone`, a number with its country code, with or without its `+` (as
    /// supabase/auth takes it): `SupabaseError.validation` when it is none.
    public func phone() throws -> PhoneNumber {
        let text = try string("phone", maximumLength: 32)
        let international = text.hasPrefix("+") ? text : "+" + text
        guard let phone = PhoneNumber(international) else {
            throw SupabaseError.validation("Invalid phone number format (E.164 required)")
        }
        return phone
    }

    /// Checks the body's `channel`: codes are texted (`sms`, the default); WhatsApp is not built.
    public func checkSMSChannel() throws {
        guard try optionalString("channel", maximumLength: 16).map({ $0 == "sms" }) ?? true else {
            throw SupabaseError.validation("channel must be sms")
        }
    }

    /// The PKCE challenge a flow keeps for the body's `code_challenge` and
    /// `code_challenge_method` (`PKCE.flowChallenge`): nil when the client uses the implicit flow.
    public func codeChallenge() throws -> String? {
        try PKCE.flowChallenge(
            optionalString("code_challenge", maximumLength: 128),
            method: optionalString("code_challenge_method", maximumLength: 16))
    }

    /// A Supabase request body: a JSON object of at most 16 KB (any `Content-Type`, as its
    /// clients send `application/json;charset=UTF-8`).
    public static func supabase(_ request: HTTPRequest) throws(RequestBodyError) -> JSONRequestBody {
        try JSONRequestBody(request)
    }
}
