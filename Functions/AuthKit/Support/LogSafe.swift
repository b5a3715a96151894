/// An error's description made fit for a log line: what could be a credential is replaced.
///
/// Errors that nothing expected (a store's, a library's, an HTTP client's) describe themselves
/// with whatever they carry: a URL with its query, a token a parser choked on, a body. Both
/// edges and the functions' start-up warnings log such errors through this one function, so a
/// token never reaches the log by way of an error's text. Redacted: a URL's query and fragment,
/// anything shaped like a JWT (`eyJ…`), the value after a key that names a secret (`key=value`,
/// `key: value`, `"key":"value"`), and any unbroken run of base64/hex characters of 20 or more
/// with a digit, or of 32 or more.
public enum LogSafe {
    /// Runs longer than this of base64 characters with a digit read as a secret.
    static let longestPlainRun = 19
    /// Runs longer than this without a digit read as a secret too (a 24-byte token has no digit
    /// one time in 250; a name of ours is rarely this long).
    static let longestName = 31

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
            if character == "." {
                (run, digits) = (0, 0)
                continue
            }
            run += 1
            if character.isNumber { digits += 1 }
            // A long name (`remoteConnectionClosed`) has no digit; a random token almost surely has.
            if (run > longestPlainRun && digits > 0) || run > longestName { return "[redacted]" }
        }
        return word
    }

    /// Everything after `?` or `#` in a URL, and the value after a secret-named key and its `=` or
    /// `:`: a quoted value to its closing quote, another up to the next space, quote, comma or
    /// closing bracket.
    private static func redactingQueries(_ text: String) -> String {
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            output.append(character)
            index += 1
            let previous = index >= 2 ? characters[index - 2] : " "
            if (character == "?" || character == "#") && isWordCharacter(previous) {
                output += "[redacted]"
                index = endOfValue(characters, from: index)
            } else if (character == "=" || character == ":") && namesSecret(before: output.dropLast()) {
                while index < characters.count, characters[index] == " " {
                    output.append(" ")
                    index += 1
                }
                if index < characters.count, characters[index] == "\"" || characters[index] == "'" {
                    let quote = characters[index]
                    output += "\(quote)[redacted]"
                    index = endOfQuoted(characters, from: index + 1, quote: quote)
                } else {
                    output += "[redacted]"
                    index = endOfValue(characters, from: index)
                }
            }
        }
        return output
    }

    /// Where an unquoted value that starts at `start` ends.
    private static func endOfValue(_ characters: [Character], from start: Int) -> Int {
        var index = start
        while index < characters.count, !" \"',)]}>".contains(characters[index]) { index += 1 }
        return index
    }

    /// Where a value quoted by `quote` that starts at `start` ends: at its closing quote (kept).
    private static func endOfQuoted(_ characters: [Character], from start: Int, quote: Character) -> Int {
        var index = start
        while index < characters.count, characters[index] != quote {
            index += characters[index] == "\\" ? 2 : 1
        }
        return min(index, characters.count)
    }

    /// Whether the key just before a separator (`text` without it) names a secret: the word
    /// before it, past a closing quote and spaces.
    private static func namesSecret(before text: Substring) -> Bool {
        let trimmed = text.reversed().drop { $0 == " " || $0 == "\"" || $0 == "'" }
        let key = String(trimmed.prefix { isWordCharacter($0) }.reversed()).lowercased()
        return secretNames.contains { key.contains($0) }
    }

    /// Words that, in a key, name a secret.
    static let secretNames = [
        "token", "code", "pass", "pwd", "secret", "key", "otp", "nonce", "pin", "verifier", "assertion", "signature",
        "credential", "authorization", "cookie", "state",
    ]
}
