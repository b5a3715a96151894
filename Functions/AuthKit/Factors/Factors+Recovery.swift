import GatehouseJSON
import StoreCore

/// Recovery codes in `Factors` (`RecoveryCodes`), in the user's partition beside the factors:
/// - `recovery:<digest>`, one item per code, naming its set (`set`: the id of the factor whose
///   enrolment issued it, or of a regeneration);
/// - `recovery`, the set in force (`set`) and how many of its codes were used (`used`). It is
///   written when the factor whose enrolment showed the codes is verified first: before that,
///   and for any other set (an enrolment abandoned, or one made by someone else with the
///   password), codes match nothing.
///
/// Using a code is one transaction: the code's item deleted on the condition it is of the set in
/// force, the set's count raised on the same condition, and the session raised; so a code works
/// once, even twice at the same moment, and a set replaced meanwhile takes its codes along.
extension Factors {
    /// Wrong recovery codes of one user: 5 an hour (a code has 50 random bits; the owner's next
    /// right code works again when the window ends).
    public static let recoveryGuessesPerUser = RateLimit(name: "mfa-recovery:user", limit: 5, window: 3600)
    /// Wrong recovery codes per source IP (an IPv6 /64 as one): 30 an hour, across users. No
    /// per-app pool, for the reason the TOTP codes have none (`guessesPerSource`).
    public static let recoveryGuessesPerSource = RateLimit.perSource(name: "mfa-recovery:ip", limit: 30, window: 3600)
    /// The `amr` method a recovery code raises a session with. Not Supabase's `recovery`, which
    /// means a password-recovery link's sign-in.
    public static let recoveryMethod = "recovery_code"
    /// What a session raised by a recovery code names as its raiser (`RefreshTokens.lowerSessions`).
    static let recoveryRaiser = "recovery-codes"
    /// The sort key of the set in force.
    static let recoverySetEntry = "recovery"

    /// A recovery code used: the raised session and how many codes of the set are left.
    public struct RecoveryCodeUse: Sendable {
        public let session: SessionResponse
        public let remaining: Int
    }

    /// The session of `bearer` raised to `aal2` with `code`, one of `user`'s recovery codes of the
    /// set in force, which it spends. `FactorError.recoveryCodeInvalid` for a code that is not one
    /// (malformed, used, of another set, or the user has no verified factor); tries are counted
    /// before, per source and per user, and a right one is taken back.
    public func useRecoveryCode(
        _ code: String, user: User, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> RecoveryCodeUse {
        guard let recovery else { throw FactorError.totpNotEnabled }
        guard let normalized = RecoveryCodes.normalized(code) else { throw FactorError.recoveryCodeInvalid }
        let limits = recoveryLimits(userID: bearer.userID, sourceIP: sourceIP)
        try await RateLimiter(store: store, clock: clock).count(limits)
        guard let set = try await recoverySet(userID: bearer.userID),
            try await list(userID: bearer.userID).contains(where: \.verified)
        else { throw FactorError.recoveryCodeInvalid }
        let digest = recovery.digest(normalized, userID: bearer.userID)
        let writes: [WriteOperation] = [
            .delete(
                table: Self.table, key: recoveryKey(bearer.userID, Self.recoveryCodeEntry(digest)),
                condition: .attributeEquals("set", .string(set.id))),
            .update(
                table: Self.table, key: recoveryKey(bearer.userID, Self.recoverySetEntry), actions: [.add("used", 1)],
                condition: .attributeEquals("set", .string(set.id))),
        ]
        let session: SessionResponse
        do {
            session = try await raiseSession(
                of: user, bearer: bearer, method: Self.recoveryMethod, factorID: Self.recoveryRaiser, proving: writes,
                refusal: { _ in FactorError.recoveryCodeInvalid })
        } catch FactorError.recoveryCodeInvalid {
            await recordRefusedProof(bearer: bearer)
            throw FactorError.recoveryCodeInvalid
        }
        await RateLimiter(store: store, clock: clock).takeBack(limits)
        return RecoveryCodeUse(session: session, remaining: max(0, RecoveryCodes.count - set.used - 1))
    }

    /// A new set of codes for the bearer, replacing the set in force, from an `aal2` session of a
    /// user with a verified factor (`insufficient_aal` below): the codes, shown this once.
    public func regenerateRecoveryCodes(bearer: AccessTokens.Bearer) async throws -> [String] {
        guard recovery != nil else { throw FactorError.totpNotEnabled }
        guard try await list(userID: bearer.userID).contains(where: \.verified) else {
            throw FactorError.factorNotFound
        }
        guard bearer.sessionAAL == "aal2" else { throw FactorError.insufficientAAL(enrolling: true) }
        let replaced = try await recoverySet(userID: bearer.userID)?.id
        let set = "regenerated-" + RandomToken.uuid()
        let codes = try await putRecoveryCodes(userID: bearer.userID, set: set)
        try await store.put(Self.table, item: recoverySetItem(userID: bearer.userID, set: set), condition: nil)
        // The replaced set's codes match nothing from here on; they go (only theirs, so a
        // regeneration at the same moment keeps its own).
        for item in try await recoveryItems(userID: bearer.userID)
        where item["entry"] != .string(Self.recoverySetEntry) && item["set"]?.stringValue == replaced {
            try await deleteRecoveryItem(item, userID: bearer.userID)
        }
        return codes
    }

    /// How many codes of `userID`'s set in force are left; nil without one.
    public func recoveryCodesLeft(userID: String) async throws -> Int? {
        try await recoverySet(userID: userID).map { max(0, RecoveryCodes.count - $0.used) }
    }

    /// Codes for the enrolment of `factor`, the user's first verified one if it is verified
    /// before the others: a new set named after it. The user's code items of a factor that no
    /// longer lives (`existing`, their other factors) go, and with no verified factor, any set
    /// in force (left over). Empty without an OTP secret.
    func issueRecoveryCodes(for factor: Factor, besides existing: [Factor]) async throws -> [String] {
        guard recovery != nil else { return [] }
        let live = Set(existing.map(\.id))
        for item in try await recoveryItems(userID: factor.userID) {
            if let set = item["set"]?.stringValue, item["entry"] != .string(Self.recoverySetEntry), live.contains(set) {
                continue
            }
            try await deleteRecoveryItem(item, userID: factor.userID)
        }
        return try await putRecoveryCodes(userID: factor.userID, set: factor.id)
    }

    /// After `factorID` was verified: the codes its enrolment issued come in force if no set is
    /// (its user's first verified factor), and every code of another set goes (those of an
    /// enrolment abandoned, or made by someone else before the owner's).
    func settleRecoveryCodes(userID: String, verified factorID: String) async throws {
        guard recovery != nil else { return }
        let items = try await recoveryItems(userID: userID)
        let codes = items.filter { $0["entry"] != .string(Self.recoverySetEntry) }
        var inForce = try await recoverySet(userID: userID)?.id
        if inForce == nil, codes.contains(where: { $0["set"] == .string(factorID) }) {
            do {
                try await store.put(
                    Self.table, item: recoverySetItem(userID: userID, set: factorID), condition: .itemNotExists)
                inForce = factorID
            } catch StoreError.conditionFailed {
                inForce = try await recoverySet(userID: userID)?.id  // another verify's came first
            }
        }
        // A regenerated set's codes are left alone: a regeneration read before this settles its
        // own (it deletes the set it replaced), and deleting them here could leave one in force
        // with no codes.
        for item in codes where item["set"]?.stringValue != inForce {
            if item["set"]?.stringValue?.hasPrefix("regenerated-") == true { continue }
            try await deleteRecoveryItem(item, userID: userID)
        }
    }

    /// Once `userID` has no verified factor (the last was unenrolled), its recovery codes go, and
    /// the sessions they raised go back to `aal1`.
    func removeRecoveryCodesWithoutFactor(userID: String) async throws {
        guard try await Self.removeRecoveryCodesWithoutFactor(userID: userID, in: store) else { return }
        try await sessions.refreshTokens.lowerSessions(userID: userID, raisedBy: Self.recoveryRaiser)
    }

    /// Deletes `userID`'s recovery codes and their set when the user has no verified factor
    /// left (the user's own removal, and an admin's: `UserAdmin.deleteFactor`); whether it did.
    /// The sessions a code raised (`recoveryRaiser`) are the caller's to lower or end.
    static func removeRecoveryCodesWithoutFactor(userID: String, in store: any KeyValueStore) async throws -> Bool {
        guard try await !list(userID: userID, in: store).contains(where: \.verified) else { return false }
        let items = try await store.query(
            Self.table, partition: .string(userID), sortKey: .beginsWith(Self.recoverySetEntry), limit: nil,
            ascending: true)
        // The set first: its codes match nothing from then on.
        let isSet: (Item) -> Bool = { $0["entry"] == .string(Self.recoverySetEntry) }
        for item in items.filter(isSet) + items.filter({ !isSet($0) }) {
            guard case .string(let entry)? = item["entry"] else { continue }
            _ = try await store.delete(Self.table, key: ItemKey(.string(userID), .string(entry)), condition: nil)
        }
        return true
    }

    /// Sends `user` (when they have an address) the notice that a recovery code was used in `app`,
    /// with how many are left: no code in it.
    public static func mailRecoveryNotice(to user: User, app: App, remaining: Int, links: EmailTokens) async throws {
        guard let email = user.email else { return }
        try await links.notify(
            email, subject: "A recovery code was used on your \(app.name) account",
            text: "A recovery code was just used instead of your second factor to sign in to your \(app.name) "
                + "account. \(remaining) of your recovery codes are left.\n\n"
                + "If this was not you, your password is known to someone else: change it, and replace "
                + "your recovery codes.",
            app: app)
    }

    // MARK: Items

    static func recoveryCodeEntry(_ digest: String) -> String { "recovery:\(digest)" }

    func recoveryKey(_ userID: String, _ entry: String) -> ItemKey { ItemKey(.string(userID), .string(entry)) }

    /// `userID`'s set in force and its used count; nil without one.
    func recoverySet(userID: String) async throws -> (id: String, used: Int)? {
        guard let item = try await store.get(Self.table, key: recoveryKey(userID, Self.recoverySetEntry)),
            case .string(let id)? = item["set"]
        else { return nil }
        return (id, Int(item["used"]?.numberValue ?? 0))
    }

    /// Every recovery item of `userID`: the set in force and the codes.
    func recoveryItems(userID: String) async throws -> [Item] {
        try await store.query(
            Self.table, partition: .string(userID), sortKey: .beginsWith(Self.recoverySetEntry), limit: nil,
            ascending: true)
    }

    private func recoverySetItem(userID: String, set: String) -> Item {
        [
            "userId": .string(userID), "entry": .string(Self.recoverySetEntry), "set": .string(set),
            "used": .number(0), "createdAt": .number(clock.now * 1000),
        ]
    }

    /// Fresh codes of `set`, their digests put in one transaction.
    private func putRecoveryCodes(userID: String, set: String) async throws -> [String] {
        guard let recovery else { return [] }
        let codes = RecoveryCodes.generate()
        try await store.transactWrite(
            codes.map { code -> WriteOperation in
                let digest = recovery.digest(RecoveryCodes.normalized(code) ?? code, userID: userID)
                return .put(
                    table: Self.table,
                    item: [
                        "userId": .string(userID), "entry": .string(Self.recoveryCodeEntry(digest)),
                        "set": .string(set), "createdAt": .number(clock.now * 1000),
                    ], condition: .itemNotExists)
            })
        return codes
    }

    private func deleteRecoveryItem(_ item: Item, userID: String) async throws {
        guard case .string(let entry)? = item["entry"] else { return }
        _ = try await store.delete(Self.table, key: recoveryKey(userID, entry), condition: nil)
    }

    private func recoveryLimits(userID: String, sourceIP: String?) -> [(RateLimit, String)] {
        // The source first, so that a source over its limit spends none of the owner's tries.
        (sourceIP.map { [(Self.recoveryGuessesPerSource, $0)] } ?? []) + [(Self.recoveryGuessesPerUser, userID)]
    }
}

extension RateLimiter {
    /// Counts one try against each of `limits` in order: `SignInError.rateLimited` over any.
    func count(_ limits: [(RateLimit, String)]) async throws {
        for (rule, subject) in limits {
            if case .limited(let retryAfter) = try await hit(rule, subject: subject) {
                throw SignInError.rateLimited(retryAfter: retryAfter)
            }
        }
    }

    /// Takes one try back from each of `limits` (best effort): it was right.
    func takeBack(_ limits: [(RateLimit, String)]) async {
        for (rule, subject) in limits { try? await undo(rule, subject: subject) }
    }
}
