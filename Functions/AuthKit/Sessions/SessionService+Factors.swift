extension SessionService {
    /// The live second factors of `userID`, for the user object a session's answer carries
    /// (Supabase's clients read `factors` there for the next assurance level).
    public func factors(of userID: String) async throws -> [Factor] {
        try await Factors.list(userID: userID, in: store)
    }
}
