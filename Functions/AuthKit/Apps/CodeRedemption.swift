/// Where an app's auth codes may be redeemed.
public enum CodeRedemption: String, Sendable, CaseIterable, Comparable {
    /// `POST /auth/exchange`, by the app itself (a browser or a mobile app), for Gatehouse's tokens.
    case `public`
    /// `POST /api/v1/auth/verify`, by the app's backend with an S2S assertion.
    case backend

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
