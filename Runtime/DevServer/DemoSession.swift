/// The demo app's record of one browser's sign-in: the tokens `Exchange` gave it, kept in
/// start-api's memory under a random cookie, never in the page.
struct DemoSession: Sendable {
    var accessToken: String
    var refreshToken: String
    /// Whether `Exchange` made a new account for this sign-in.
    let isNewUser: Bool
}
