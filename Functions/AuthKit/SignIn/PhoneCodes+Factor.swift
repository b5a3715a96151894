import GatehouseJSON
import StoreCore

/// The codes of phone factors (`PhoneFactors`): one 6-digit code a challenge, texted through the
/// same sender (or made, sent and checked by the same provider, Twilio Verify) as sign-in codes,
/// under the same limits and budget. Gatehouse's own code is an HMAC under the OTP secret of the
/// number and the challenge (`OTPSecret.code(phone:issue:)`), made again to check it: nothing of
/// it is stored, and no two challenges share one. A provider keeps one pending code a number
/// (Twilio sends it again to a later challenge) and checks it itself, as for sign-in.
extension PhoneCodes {
    /// A factor code's request to `phone` for the challenge `issue` names, from the session
    /// `sessionID` of `app`: its checks and counts, all made now, so that a refusal is the
    /// answer, and the text itself as work for after it. Counted as a sign-in code's request
    /// (`check`: the number's destination; per source, per number and source, per range and
    /// source), then per session and per user (`PhoneFactors.sendsPerSession`, `sendsPerUser`),
    /// then the hourly budget.
    func prepareFactorCode(
        to phone: PhoneNumber, issue: String, app: String, userID: String, sessionID: String, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        _ = try await check(phone, sourceIP: sourceIP, codeChallenge: nil, channel: .sms)
        let limiter = RateLimiter(store: store, clock: clock)
        for (rule, subject) in [(PhoneFactors.sendsPerSession, sessionID), (PhoneFactors.sendsPerUser, userID)] {
            if case .limited(let seconds) = try await limiter.hit(rule, subject: subject) {
                throw SignInError.rateLimited(retryAfter: seconds)
            }
        }
        try await budget.spend(app: app, store: store, clock: clock)
        return { [self] in
            if let provider { return try await provider.start(phone, channel: .sms) }
            let code = secret.code(phone: phone, issue: issue)
            try await sender.send(
                OutgoingMessage(
                    channel: .sms, recipient: phone.value, subject: nil, text: "Your code is \(code)", secret: code,
                    app: app))
        }
    }

    /// Whether `code` is the factor code of `issue` texted to `phone` (compared in constant
    /// time), or, with a provider, its pending code of `phone` (used up there when right).
    func checkFactorCode(_ code: String, to phone: PhoneNumber, issue: String) async throws -> Bool {
        if let provider { return try await provider.check(phone, code: code) }
        return ConstantTime.equal(secret.code(phone: phone, issue: issue), code)
    }
}
