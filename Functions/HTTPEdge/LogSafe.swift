/// An error's description made fit for a log line: what could be a credential is replaced.
///
/// Errors that nothing expected (a store's, a library's, an HTTP client's) describe themselves
/// with whatever they carry: a URL with its query, a token a parser choked on, a body. Both
/// edges log such errors through this one function, so a token never reaches the log by way of
/// an error's text. Redacted: a URL's query and fragment, anything shaped like a JWT (`eyJ…`),
/// `key=value` pairs whose key names a secret, and any unbroken run of base64url/hex characters
/// of 20 or more with a digit, or of 40 or more.
public enum LogSafe {
    /// Runs longer than this of base64url characters read as a secret.
    static let longestPlainRun = 19

    /// `error`'s description with every secret-shaped part replaced by `[redacted]`.
    public static func description(of error: any Error) -> String {
        redacted(String(describing: error))
    }

    /// `text` with every secret-shaped part replaced by `[redacted]`.
    public static func redacted(_ text: String) -> String {
        var output = ""
        var word = ""
        for character in text {
            if isWordCharacter(character) {
                word.append(character)
            } else {
                output += redactedWord(word)
                word = ""
                output.append(character)
            }
        }
        output += redactedWord(word)
        return redactingQueries(output)
    }

    /// Letters, digits and the base64url/JWT punctuation: what a token is made of.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.+/~".contains(character))
    }

    private static func redactedWord(_ word: String) -> String {
        if word.isEmpty { return word }
        if word.hasPrefix("eyJ") { return "[redacted]" }
        var run = 0
        var digits = 0
        for character in word {
            if character == "." || character == "/" {
                (run, digits) = (0, 0)
                continue
            }
            run += 1
            if character.isNumber { digits += 1 }
            // A long name (`remoteConnectionClosed`) has no digit; a random token almost surely has.
            if (run > longestPlainRun && digits > 0) || run > 2 * longestPlainRun { return "[redacted]" }
        }
        return word
    }

    /// Everything after `?` or `#` in a URL, and the value of `secret-named=value`, up to the next
    /// space or quote.
    private static func redactingQueries(_ text: String) -> String {
        var output = ""
        var skipping = false
        var previous: Character = " "
        for character in text {
            if skipping {
                if character == " " || character == "\"" || character == "'" || character == ">" || character == ")" {
                    skipping = false
                    output.append(character)
                }
                continue
            }
            output.append(character)
            if (character == "?" || character == "#") && isWordCharacter(previous) {
                output += "[redacted]"
                skipping = true
            } else if character == "=" && namesSecret(output) {
                output += "[redacted]"
                skipping = true
            }
            previous = character
        }
        return output
    }

    /// Whether the word just before a trailing `=` in `text` names a secret.
    private static func namesSecret(_ text: String) -> Bool {
        let name = text.dropLast().reversed().prefix { isWordCharacter($0) }
        let key = String(name.reversed()).lowercased()
        return ["token", "code", "password", "secret", "key", "otp", "verifier", "assertion", "signature"]
            .contains { key.contains($0) }
    }
}
