/// Why a `GatehouseClient` call failed.
public enum GatehouseClientError: Error, Sendable, Equatable {
    /// No one is signed in: never, after `signOut`, or because the server refused the refresh
    /// token (expired, revoked, or reused elsewhere, which ended the session); the tokens are
    /// gone and the app should show its sign-in.
    case signedOut
    /// The server refused the request: its status and Gatehouse's error code and message.
    case refused(status: Int, code: String?, message: String?)
    /// The server's answer was not what Gatehouse answers.
    case malformedAnswer(status: Int)
}
