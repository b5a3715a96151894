import Crypto

/// AWS Signature Version 4 (the form every AWS API but S3 takes): the request's canonical
/// form hashed into a string to sign, signed with a key derived from the secret, the day, the
/// region and the service. The result is the headers to add: `x-amz-date`,
/// `x-amz-security-token` with temporary credentials, and `authorization`.
///
/// Reproduces botocore's signer byte for byte (`Tests/AWSTests/Vectors/sigv4`): the path's
/// segments encoded again (so `%20` signs as `%2520`), query pairs decoded, re-encoded and
/// sorted, header values trimmed with inner runs of spaces collapsed, `host` with its port
/// when it is not the scheme's default.
public struct SigV4Signer: Sendable {
    public let credentials: AWSCredentials
    public let region: String
    public let service: String

    public init(credentials: AWSCredentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// A request's parts as the signer reads them.
    public struct Request: Sendable {
        public var method: String
        public var url: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// The headers to add to `request` to sign it at `date` (`YYYYMMDD'T'HHMMSS'Z'`, UTC).
    public func signingHeaders(
        for request: Request, amzDate: String
    ) throws(SigV4Error) -> [(
        name: String, value: String
    )] {
        var added = [(name: "x-amz-date", value: amzDate)]
        if let token = credentials.sessionToken { added.append((name: "x-amz-security-token", value: token)) }
        let parts = try SigV4Canonical(request: request, extraHeaders: added)
        let scope = "\(amzDate.prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = stringToSign(canonicalRequest: parts.canonicalRequest, amzDate: amzDate, scope: scope)
        let signature = HMAC<SHA256>.authenticationCode(
            for: Array(toSign.utf8), using: signingKey(day: amzDate.prefix(8)))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(parts.signedHeaders), "
            + "Signature=\(SigV4Canonical.hex(signature))"
        return added + [(name: "authorization", value: authorization)]
    }

    func stringToSign(canonicalRequest: String, amzDate: String, scope: String) -> String {
        "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n\(SigV4Canonical.hex(SHA256.hash(data: Array(canonicalRequest.utf8))))"
    }

    /// HMAC chain: `AWS4` + secret, then the day, the region, the service, `aws4_request`.
    private func signingKey(day: Substring) -> SymmetricKey {
        var key = SymmetricKey(data: Array("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(day), region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return key
    }
}

/// Why a request cannot be signed.
public enum SigV4Error: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedURL(String)

    public var description: String {
        switch self {
        case .unsupportedURL(let reason): "cannot sign the request: \(reason)"
        }
    }
}
