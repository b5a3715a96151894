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
