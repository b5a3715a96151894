import AuthKit
import GatehouseJSON
import JOSE
import StoreCore
import WebAuthn

extension PasskeyCeremonies {
    /// Ends the sign-in of challenge `challengeID` with the assertion `credential`: the user and
    /// a new session in `app`, at `aal2` (but `provesBothFactors`). Every refusal of the credential (unknown, another
    /// user's handle, flagged, any failed check) is `PasskeyError.verificationFailed`; a counter
    /// that went back flags the passkey too.
    public func finishSignIn(
        challengeID: String, credential: JSONValue, app: App, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        let (passkey, assertion, user) = try await verified(
            challengeID: challengeID, credential: credential, app: app, sourceIP: sourceIP)
        do {
            let session = try await sessions.start(
                user: user, app: app.id, provider: "passkey",
                secondFactor: try await provesBothFactors(passkey)
                    ? SecondFactorProof(method: Self.secondFactorMethod, factorID: passkey.id) : nil,
                startedBy: passkey.id,
                alongWith: [passkeys.use(passkey, count: assertion.signCount, backedUp: assertion.backedUp)])
            return (user, session)
        } catch StoreError.transactionCanceled(index: 2, _, _) {
            // Another sign-in with the same counter won, or the passkey was removed meanwhile.
            throw PasskeyError.verificationFailed(reason: "the passkey changed during the sign-in")
        }
    }

    /// The checks of a sign-in's assertion, under the per-source limit: the passkey it proves,
    /// the assertion's counter and backup state, and the passkey's user. Any refusal is
    /// `PasskeyError.verificationFailed` (a counter that went back flags the passkey too).
    func verified(
        challengeID: String, credential: JSONValue, app: App, sourceIP: String?
    ) async throws -> (passkey: Passkey, assertion: RelyingParty.Assertion, user: User) {
        try await count(Self.signInsPerSource, subject: sourceIP ?? "")
        let challenge = try await passkeys.spend(challengeID, purpose: .authentication, app: app.id)
        let response = try Self.refusing { try CredentialResponse.assertion(credential) }
        let passkey = try await owned(response)
        let assertion: RelyingParty.Assertion
        do throws(WebAuthnError) {
            assertion = try settings.party(for: app).verifyAssertion(
                clientDataJSON: response.clientDataJSON, authenticatorData: response.authenticatorData ?? [],
                signature: response.signature ?? [], challenge: challenge.challenge,
                publicKey: try COSEKey(bytes: Base64URL.decode(passkey.publicKey) ?? []),
                storedCount: passkey.signCount)
        } catch .counterRegressed {
            try await passkeys.flag(passkey)
            throw PasskeyError.verificationFailed(reason: "\(WebAuthnError.counterRegressed)")
        } catch {
            throw PasskeyError.verificationFailed(reason: "\(error)")
        }
        guard let user = try await sessions.users.user(id: passkey.userID) else {
            throw PasskeyError.verificationFailed(reason: "the passkey's user is gone")
        }
        return (passkey, assertion, user)
    }

    /// Whether a sign-in with `passkey` starts at `aal2`: it was registered from an `aal2`
    /// session, or its user has no verified second factor (then the passkey is the strongest way
    /// in there is). One registered at `aal1` before the user turned MFA on starts at `aal1`,
    /// and the user's factor raises it.
    func provesBothFactors(_ passkey: Passkey) async throws -> Bool {
        if passkey.registeredAtAAL2 { return true }
        return try await !Factors.list(userID: passkey.userID, in: store).contains(where: \.verified)
    }

    /// The passkey of the assertion's credential id, whose user handle names its owner and which
    /// is not flagged.
    private func owned(_ response: CredentialResponse) async throws -> Passkey {
        guard let passkey = try await passkeys.passkey(credentialID: response.id) else {
            throw PasskeyError.verificationFailed(reason: "unknown credential")
        }
        guard let handle = response.userHandle, handle == Self.userHandle(of: passkey.userID) else {
            throw PasskeyError.verificationFailed(reason: "the user handle is not the credential's owner")
        }
        guard !passkey.flagged else { throw PasskeyError.verificationFailed(reason: "the passkey is flagged") }
        return passkey
    }
}
