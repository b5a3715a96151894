import Foundation

/// A TOTP factor just enrolled (`GatehouseClient.enrollTOTP`): unverified until a code of it is
/// verified, and its secret, shown this once. Show `qrCode` (or `uri`) for the authenticator app
/// to read, or `secret` to type in.
public struct GatehouseTOTPEnrollment: Sendable, Equatable {
    /// The factor's id, for `challengeAndVerifyFactor` and `unenrollFactor`.
    public var factorID: String
    public var friendlyName: String
    /// The secret in base32.
    public var secret: String
    /// The `otpauth://totp/…` URI authenticator apps read.
    public var uri: String
    /// The URI as an SVG QR code, in a `data:image/svg+xml;utf-8,` URL.
    public var qrCode: String
    /// Ten single-use recovery codes (`xxxxx-xxxxx`), at the user's first enrolment only: show
    /// them once, for the user to keep; they work once the factor is verified. Empty later.
    public var recoveryCodes: [String]

    public init(
        factorID: String, friendlyName: String, secret: String, uri: String, qrCode: String,
        recoveryCodes: [String] = []
    ) {
        self.factorID = factorID
        self.friendlyName = friendlyName
        self.secret = secret
        self.uri = uri
        self.qrCode = qrCode
        self.recoveryCodes = recoveryCodes
    }
}
