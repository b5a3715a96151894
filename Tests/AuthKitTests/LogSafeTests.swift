import AuthKit
import Testing

/// What an unexpected error's log line may keep and what it must not.
struct LogSafeTests {
    struct Carrying: Error, CustomStringConvertible {
        let description: String
    }

    @Test(arguments: [
        (
            "bad token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln in header",
            "bad token [redacted] in header"
        ),
        (
            "GET http://127.0.0.1:3000/auth/v1/verify?token=abc&type=signup failed",
            "GET http://127.0.0.1:3000/auth/v1/verify?[redacted] failed"
        ),
        ("redirect to https://app.example/cb#access_token=x&y=z)", "redirect to https://app.example/cb#[redacted])"),
        ("body: code=1234 rest", "body: code=[redacted] rest"),
        (
            "{\"refresh_token\": \"r1\"} and password=hunter2!",
            "{\"refresh_token\": \"[redacted]\"} and password=[redacted]"
        ),
        (
            "body {\"password\":\"Tr0ub4dor3\",\"email\":\"a@b.c\"}",
            "body {\"password\":\"[redacted]\",\"email\":\"a@b.c\"}"
        ),
        ("Fields(password: \"hunter2\", code: 123456)", "Fields(password: \"[redacted]\", code: [redacted])"),
        ("nonce=123456 pin: 0000", "nonce=[redacted] pin: [redacted]"),
        ("key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY used", "key [redacted] used"),
        ("state KqKokJNZcnMEaLAUUfYxvSsxHgaegfnX here", "state [redacted] here"),
        ("hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "hash [redacted]"),
        ("flow code Zt3nQm9W1xY2bC4dE5fG6hI7 spent", "flow code [redacted] spent"),
    ])
    func secretShapedPartsAreRedacted(text: String, expected: String) {
        #expect(LogSafe.description(of: Carrying(description: text)) == expected)
    }

    /// What makes the line useful stays: type and case names, hosts, ports, paths, small numbers.
    @Test func theCauseStaysReadable() {
        let text =
            "HTTPClientError.remoteConnectionClosed talking to https://dynamodb.us-east-1.amazonaws.com:443/ after 3 tries"
        #expect(LogSafe.description(of: Carrying(description: text)) == text)
        #expect(
            LogSafe.description(of: Carrying(description: "StoreError.conditionFailed(table: Sessions)"))
                == "StoreError.conditionFailed(table: Sessions)")
    }
}
