import GatehouseJSON
import StoreCore

/// The codes that confirm a user's new number (Supabase's `PUT /user {phone}`, then
/// `verifyOTP(phone:token:type: .phoneChange)`). A change's code lives under the new number in a
/// slot of its own (`number#change`), apart from the number's sign-in codes, with the user it was
/// asked for: typed where a sign-in code goes it signs nobody in, and a sign-in code changes no
/// one's number. One change a number at a time: while a user's code for it is live, another
/// user's request for the same number texts nothing (the answer is the same) until it is used or
/// expires (15 minutes at most). Requests are limited as sign-in codes are (`check`: per source,
/// per number and source, per range and source, then the budget), and tries as theirs are.
extension PhoneCodes {
    /// Where the change codes of `phone` live.
    func changeSlot(_ phone: PhoneNumber) -> ItemKey {
        ItemKey(.string("\(phone.value)#change"))
    }

    /// A request to text `userID` the code that moves it to `phone`, checked and counted now
    /// (whether or not the number is free), and the text as work for after the caller's answer.
    public func prepareChange(
        to phone: PhoneNumber, for userID: String, app: String, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        _ = try await check(phone, sourceIP: sourceIP, codeChallenge: nil, channel: .sms)
        return { [self] in try await textChange(to: phone, for: userID, app: app) }
    }

    /// Supabase's `/resend {type: "phone_change", phone}` (the new number): checked and counted
    /// now; after the answer, the live change code of that number texted again to it, for the
    /// same user (nothing when there is none: a change asked for more than 15 minutes ago is
    /// asked for again with `PUT /user`).
    public func prepareChangeResend(
        to phone: PhoneNumber, app: String, sourceIP: String?
    ) async throws -> @Sendable () async throws -> Void {
        _ = try await check(phone, sourceIP: sourceIP, codeChallenge: nil, channel: .sms)
        return { [self] in
            guard let userID = try await state(of: changeSlot(phone)).live?.forUser else { return }
            try await textChange(to: phone, for: userID, app: app)
        }
    }

    /// `userID`'s change code texted to `phone`: its live one again, or a fresh one; nothing while
    /// another user's code for the number is live.
    private func textChange(to phone: PhoneNumber, for userID: String, app: String) async throws {
        let key = changeSlot(phone)
        let found = try await state(of: key)
        if let live = found.live, live.forUser != userID { return }
        try await deliver(
            phone, app: app, challenge: nil, channel: .sms, at: key, found: found, forUser: userID)
    }

    /// Checks `code` against `phone`'s live change code, sent from `sourceIP` for `app`, as
    /// `verify` checks a sign-in code (counted, compared in constant time, consumed once): the id
    /// of the user whose change it confirms; `codeRefused` or `rateLimited` otherwise.
    public func verifyChange(_ phone: PhoneNumber, code: String?, sourceIP: String?, app: String) async throws -> String
    {
        let issued = try await verify(
            phone, code: code, at: changeSlot(phone), codeVerifier: nil, sourceIP: sourceIP, app: app)
        guard let userID = issued.forUser else { throw SignInError.codeRefused }
        return userID
    }
}
