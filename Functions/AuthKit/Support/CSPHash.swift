import Crypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Content-Security-Policy hash sources (CSP Level 2): an inline `<style>` or `<script>` runs
/// only when the policy names the SHA-256 of its exact text.
public enum CSPHash {
    /// `'sha256-…'` for `text`: the standard base64 of its UTF-8's SHA-256, quoted.
    public static func sha256(_ text: String) -> String {
        "'sha256-\(Data(SHA256.hash(data: Array(text.utf8))).base64EncodedString())'"
    }
}
