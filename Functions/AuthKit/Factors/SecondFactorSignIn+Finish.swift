import GatehouseJSON
import StoreCore

extension SecondFactorSignIn {
    /// What a code posted to the second step comes to.
    public enum Outcome: Sendable, Equatable {
        /// The right code: the app's callback with `?code=…` (an auth code whose session starts
        /// at `aal2`), and the browser secret's cookie cleared.
        case signedIn(redirect: String, clearedCookie: String)
        /// A wrong code (or one used already): the page again, with the tries left.
        case wrongCode(Step)
        /// No such step in this browser: unknown, used, expired, out of tries, or posted
        /// without its cookie. The sign-in starts over.
        case ended
    }

    /// Checks `code` (of the factor `factorID`, else the user's oldest verified one) for the
    /// step of `handle`, posted with the browser secret `cookie`. A malformed code is wrong
    /// without counting; any other counts once against the step's tries and against the
    /// factors' limits (`SignInError.rateLimited` over any, before the code is compared). The
    /// right one, in one transaction: the factor's step kept (a code works once), the step
    /// spent, the auth code minted.
    public func finish(
        handle: String?, code: String?, factorID: String?, cookie: String?, sourceIP: String?
    ) async throws -> Outcome {
        guard let box else { throw FactorError.totpNotEnabled }
        // A step at its last try is over, even if deleting it after that try failed.
        guard let pending = try await pending(handle, cookie: cookie), pending.tries < Self.maximumTries else {
            return .ended
        }
        let factors = try await Self.factors(of: pending.userID, in: store)
        guard let factor = factors.first(where: { $0.id == factorID }) ?? factors.first else { return .ended }
        guard let code, Factor.isShaped(code) else {
            return .wrongCode(pending.step(factors, triesLeft: Self.maximumTries - pending.tries))
        }
        let guesses = FactorGuesses(store: store, clock: clock)
        try await guesses.count(at: factor, sourceIP: sourceIP)
        guard let tries = try await countTry(pending) else { return .ended }
        guard let step = try factor.acceptedStep(of: code, box: box, at: clock.now),
            let redirect = try await accept(step, of: factor, pending: pending, tries: tries)
        else { return try await wrong(pending, tries: tries, factors: factors) }
        await guesses.takeBack(at: factor, sourceIP: sourceIP)
        return .signedIn(
            redirect: redirect, clearedCookie: cookies.cookie(Self.cookieName, "", maxAge: 0, sameSite: "Strict"))
    }

    /// The live step of `handle` whose browser secret is `cookie`; nil for any other.
    private func pending(_ handle: String?, cookie: String?) async throws -> SecondFactorPending? {
        guard let handle, handle.utf8.count <= 160, let cookie, let dot = handle.firstIndex(of: ".") else {
            return nil
        }
        let secret = String(handle[..<dot])
        let userID = String(handle[handle.index(after: dot)...])
        guard !secret.isEmpty, !userID.isEmpty,
            let item = try await store.get(
                Factors.table, key: ItemKey(.string(userID), .string(Self.entry(secret)))),
            let pending = SecondFactorPending(item, handle: handle), clock.now < pending.expiresAt,
            ConstantTime.equal(SHA256Hex.of(cookie.utf8), pending.browser)
        else { return nil }
        return pending
    }

    /// Counts a try at the step, by a write conditional on the count read: the count after it,
    /// or nil when another try or the right code got there first.
    private func countTry(_ pending: SecondFactorPending) async throws -> Int? {
        do {
            _ = try await store.update(
                Factors.table, key: pending.key, actions: [.add("tries", 1)],
                condition: .attributeEquals("tries", .number(Double(pending.tries))))
            return pending.tries + 1
        } catch StoreError.conditionFailed {
            return nil
        }
    }

    /// A wrong code's answer: the page again while tries are left; the step deleted and ended
    /// after the last.
    private func wrong(_ pending: SecondFactorPending, tries: Int, factors: [Factor]) async throws -> Outcome {
        guard tries < Self.maximumTries else {
            _ = try await store.delete(Factors.table, key: pending.key, condition: nil)
            return .ended
        }
        return .wrongCode(pending.step(factors, triesLeft: Self.maximumTries - tries))
    }

    /// The right code's writes, in one transaction: the callback with the new auth code; nil
    /// when another use took this step (or a later one) of the factor first.
    private func accept(
        _ step: Int64, of factor: Factor, pending: SecondFactorPending, tries: Int
    ) async throws -> String? {
        guard let user = try await UserDirectory(store: store, clock: clock).user(id: pending.userID) else {
            return nil
        }
        let (code, mint) = AuthCodes(store: store, clock: clock).minting(
            app: pending.app, user: user, provider: pending.provider, isNewUser: pending.isNewUser,
            codeChallenge: pending.codeChallenge, secondFactor: SecondFactorProof(method: "totp", factorID: factor.id))
        do {
            try await store.transactWrite([
                factor.stepTaken(step, at: clock.now),
                .delete(
                    table: Factors.table, key: pending.key, condition: .attributeEquals("tries", .number(Double(tries)))
                ),
                mint,
            ])
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            return nil
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            return nil
        }
        return "\(pending.callback)?code=\(code)"
    }
}
