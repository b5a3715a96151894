/// The 10,000 most common passwords (zxcvbn's list, `CommonPasswords+List.swift`), which the
/// policy refuses whatever their length: they are the first an attacker tries.
enum CommonPasswords {
    /// Built at first use (a sign-up or a password change), about a millisecond.
    static let set: Set<String> = Set(list.split(separator: "\n").map(String.init))

    /// Whether `password`, lower-cased, is on the list (the list is lower case).
    static func contains(_ password: String) -> Bool {
        set.contains(password.lowercased())
    }
}
