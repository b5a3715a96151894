extension Factors {
    /// `factor` as an export carries it (`gatehouse users export --include-password-hashes`):
    /// a verified TOTP factor with its secret opened (`FactorSecretBox`, under a key of `secret`),
    /// the shape `importWrite` seals again. Nil for a factor an import does not bring (a phone
    /// or WebAuthn factor, an unverified one); `FactorError.secretUnreadable` when its secret
    /// was sealed under another OTP secret.
    public static func exported(_ factor: Factor, secret: OTPSecret) throws -> Imported? {
        guard factor.type == "totp", factor.verified else { return nil }
        let plain = try FactorSecretBox(secret: secret).open(
            factor.sealedSecret, userID: factor.userID, factorID: factor.id)
        return Imported(
            id: factor.id, friendlyName: factor.friendlyName, createdAt: factor.createdAt, updatedAt: factor.updatedAt,
            secret: plain)
    }
}
