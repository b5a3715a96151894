/// Mail and chat services that fetch links to check or preview them before a person clicks:
/// known by their `User-Agent`. Such a fetch must not use up a sign-in link.
enum LinkScanner {
    /// Lower-cased fragments of the user agents of link checkers and previewers.
    static let fragments = [
        "bingpreview", "barracuda", "mimecast", "proofpoint", "urldefense", "safelinks", "symantec", "trendmicro",
        "forcepoint", "fireeye", "sophos", "slackbot", "facebookexternalhit", "twitterbot", "linkedinbot",
        "whatsapp", "discordbot", "telegrambot", "skypeuripreview", "googleimageproxy", "yahoomailproxy",
        "microsoft office", "ms-office", "outlook-ios", "applebot",
    ]

    static func isScanner(userAgent: String?) -> Bool {
        guard let agent = userAgent?.lowercased() else { return false }
        return fragments.contains { agent.contains($0) }
    }
}
