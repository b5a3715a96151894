import Foundation

/// Second factors (TOTP authenticator apps) of the signed-in user, through Gatehouse's
/// Supabase-compatible `/auth/v1/factors` routes: each call carries the app's publishable key
/// (`apiKey`, from `gatehouse apps list`) and the session's access token (refreshed first when
/// it is near its end, as `accessToken()` does). A refused call throws
/// `GatehouseClientError.refused` with Supabase's error code (`mfa_verification_failed`,
/// `insufficient_aal`, `mfa_factor_not_found`, …).
extension GatehouseClient {
    private struct Enrollment: Encodable, Sendable {
        let factorType = "totp"
        let friendlyName: String
        let issuer: String?

        enum CodingKeys: String, CodingKey {
            case issuer
            case factorType = "factor_type"
            case friendlyName = "friendly_name"
        }
    }

    private struct EnrollAnswer: Decodable {
        struct TOTP: Decodable {
            let qrCode: String
            let secret: String
            let uri: String

            enum CodingKeys: String, CodingKey {
                case secret, uri
                case qrCode = "qr_code"
            }
        }

        let id: String
        let friendlyName: String
        let totp: TOTP
        let recoveryCodes: [String]?

        enum CodingKeys: String, CodingKey {
            case id, totp
            case friendlyName = "friendly_name"
            case recoveryCodes = "recovery_codes"
        }
    }

    private struct ChallengeAnswer: Decodable {
        let id: String
        let expiresAt: Double

        enum CodingKeys: String, CodingKey {
            case id
            case expiresAt = "expires_at"
        }
    }

    private struct Verification: Encodable, Sendable {
        let challengeID: String
        let code: String

        enum CodingKeys: String, CodingKey {
            case code
            case challengeID = "challenge_id"
        }
    }

    private struct Empty: Encodable, Sendable {}

    private struct UserAnswer: Decodable {
        let factors: [GatehouseFactor]?
    }

    /// Enrols a new TOTP factor, unverified until `challengeAndVerifyFactor` verifies a code of
    /// it. `issuer` names the account in the authenticator app (the API's host by default).
    /// Once the user has a verified factor, only an `aal2` session may enrol another
    /// (`insufficient_aal`).
    public func enrollTOTP(
        friendlyName: String = "", issuer: String? = nil, apiKey: String
    ) async throws
        -> GatehouseTOTPEnrollment
    {
        let answer: EnrollAnswer = try decode(
            try await post(
                "/auth/v1/factors", Enrollment(friendlyName: friendlyName, issuer: issuer),
                headers: try await factorHeaders(apiKey)))
        return GatehouseTOTPEnrollment(
            factorID: answer.id, friendlyName: answer.friendlyName, secret: answer.totp.secret,
            uri: answer.totp.uri, qrCode: Self.dataURL(svg: answer.totp.qrCode),
            recoveryCodes: answer.recoveryCodes ?? [])
    }

    /// A challenge of the factor `factorID`, bound to this session, for `verifyFactor`.
    public func challengeFactor(_ factorID: String, apiKey: String) async throws -> GatehouseFactorChallenge {
        let answer: ChallengeAnswer = try decode(
            try await post(
                "/auth/v1/factors/\(try Self.pathSegment(factorID))/challenge", Empty(),
                headers: try await factorHeaders(apiKey)))
        return GatehouseFactorChallenge(id: answer.id, expiresAt: Date(timeIntervalSince1970: answer.expiresAt))
    }

    /// Verifies `code` (the authenticator's six digits) under the challenge `challengeID`: the
    /// session is raised to `aal2` and its new tokens replace the kept ones. A code works once.
    @discardableResult
    public func verifyFactor(
        _ factorID: String, challengeID: String, code: String, apiKey: String
    ) async throws
        -> GatehouseUser
    {
        let kept = try await tokens
        var session = try GatehouseSession(
            answer: try await post(
                "/auth/v1/factors/\(try Self.pathSegment(factorID))/verify",
                Verification(challengeID: challengeID, code: code), headers: try await factorHeaders(apiKey)))
        session.user.phoneNumber = session.user.phoneNumber ?? kept?.user.phoneNumber
        return try await signIn(with: session)
    }

    /// `challengeFactor` then `verifyFactor`, for a code the user has just typed.
    @discardableResult
    public func challengeAndVerifyFactor(
        _ factorID: String, code: String, apiKey: String
    ) async throws
        -> GatehouseUser
    {
        let challenge = try await challengeFactor(factorID, apiKey: apiKey)
        return try await verifyFactor(factorID, challengeID: challenge.id, code: code, apiKey: apiKey)
    }

    /// Removes the factor `factorID`: a verified one only from an `aal2` session
    /// (`insufficient_aal`). The sessions it raised go back to `aal1`, this one included: its
    /// tokens are refreshed so that they say so.
    public func unenrollFactor(_ factorID: String, apiKey: String) async throws {
        _ = try await send(
            "DELETE", "/auth/v1/factors/\(try Self.pathSegment(factorID))", body: nil,
            headers: try await factorHeaders(apiKey))
        if let kept = try await tokens { _ = try await refreshed(from: kept) }
    }

    /// The user's factors, verified or not, oldest first (`GET /auth/v1/user`).
    public func factors(apiKey: String) async throws -> [GatehouseFactor] {
        let answer: UserAnswer = try decode(
            try await send("GET", "/auth/v1/user", body: nil, headers: try await factorHeaders(apiKey)))
        return answer.factors ?? []
    }

    /// The session's assurance level now and the one it can reach (Supabase's
    /// `getAuthenticatorAssuranceLevel`): `current` from the access token's `aal`, `next` `aal2`
    /// when the user has a verified factor. One call, for the user's factors.
    public func assuranceLevel(apiKey: String) async throws -> GatehouseAssurance {
        let verified = try await factors(apiKey: apiKey).contains(where: \.isVerified)
        let claims = try AccessTokenClaims(try await accessToken())
        let current = GatehouseAssurance.Level(rawValue: claims.aal ?? "aal1") ?? .aal1
        return GatehouseAssurance(
            current: current, next: verified ? .aal2 : current, methods: claims.amr?.map(\.method) ?? [])
    }

    /// The QR code's SVG markup as a data URL an image view takes, as Supabase's clients make it.
    static func dataURL(svg: String) -> String {
        svg.hasPrefix("data:") ? svg : "data:image/svg+xml;utf-8,\(svg)"
    }

    /// The factor routes' headers: the app's key and the session's access token.
    private func factorHeaders(_ apiKey: String) async throws -> [String: String] {
        // No `X-Supabase-Api-Version`: refusals then come in the shape whose `error_code` the
        // client reads for every Supabase route.
        ["apikey": apiKey, "Authorization": "Bearer \(try await accessToken())"]
    }

    func decode<Answer: Decodable>(_ data: Data) throws -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw GatehouseClientError.malformedAnswer(status: 200)
        }
    }

    /// `id` as one path segment: the ids Gatehouse makes are UUIDs; anything else would change
    /// the route, and is refused before a call, as the server refuses an unknown id (`code`).
    static func pathSegment(_ id: String, unknown code: String = "mfa_factor_not_found") throws -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        guard !id.isEmpty, id.count <= 64, id.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw GatehouseClientError.refused(status: 404, code: code, message: "no such id")
        }
        return id
    }
}
