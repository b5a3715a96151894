/// A display name for a new user who signed in by email: the local part without its `+tag`,
/// split at `.`, `_` and `-`, each word capitalised. `john.doe@gmail.com` → "John Doe",
/// `j_smith+news@x.io` → "J Smith". Nil when nothing of letters remains (`123@x.io`).
public enum DisplayName {
    public static func from(email: EmailAddress) -> String? {
        let local = email.value.prefix { $0 != "@" }.prefix { $0 != "+" }
        let words = local.split(whereSeparator: { $0 == "." || $0 == "_" || $0 == "-" })
            .filter { $0.contains(where: \.isLetter) }
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        guard !words.isEmpty else { return nil }
        return String(words.joined(separator: " ").prefix(100))
    }
}
