/// An iOS app as Apple's associated domains name it: `TEAMID.bundle.id`, the team's (or an older
/// App ID prefix's) 10 upper-case letters or digits, a dot, and the app's reverse-DNS bundle id.
/// `apple-app-site-association` lists them under `webcredentials` (`AppSiteAssociation`): the
/// apps that may use this domain's passkeys.
public enum AppleAppID {
    /// How many one app may list.
    public static let maximumPerApp = 20
    /// A bundle id's longest, as App Store Connect allows.
    static let maximumBundleIDLength = 155

    /// `ids` checked, without repeats, in their order; `AppError.invalid("apple-app-id", …)` names
    /// the first that is wrong, or says there are too many.
    public static func checked(_ ids: [String]) throws(AppError) -> [String] {
        var seen = Set<String>()
        var kept: [String] = []
        for id in ids where seen.insert(id).inserted {
            try validate(id)
            kept.append(id)
        }
        guard kept.count <= maximumPerApp else {
            throw .invalid("apple-app-id", "an app lists at most \(maximumPerApp)")
        }
        return kept
    }

    /// Throws unless `id` is `TEAMID.bundle.id`.
    public static func validate(_ id: String) throws(AppError) {
        let scalars = Array(id.unicodeScalars)
        let teamID = scalars.prefix(10)
        guard scalars.count > 11, teamID.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
            scalars[10] == "."
        else {
            throw .invalid(
                "apple-app-id", "\(quoted(id)) is not TEAMID.bundle.id: the team id is 10 upper-case letters or digits")
        }
        let bundleID = scalars[11...]
        let parts = bundleID.split(separator: ".", omittingEmptySubsequences: false)
        guard bundleID.count <= maximumBundleIDLength, parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }),
            bundleID.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "."
            })
        else {
            throw .invalid(
                "apple-app-id",
                "\(quoted(id)): the bundle id after the team id must be reverse-DNS (com.example.app): letters, digits, - and ., at most \(maximumBundleIDLength)"
            )
        }
    }

    /// `text` for an error message: at most 80 characters, nothing unprintable.
    static func quoted(_ text: String) -> String {
        let shown = String(
            String.UnicodeScalarView(text.unicodeScalars.prefix(80).filter { $0.value >= 0x20 && $0.value < 0x7F }))
        return "\"\(shown)\(text.unicodeScalars.count > 80 ? "…" : "")\""
    }
}
