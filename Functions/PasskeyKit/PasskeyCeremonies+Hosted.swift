import AuthKit
import GatehouseJSON
import StoreCore
import WebAuthn

extension PasskeyCeremonies {
    /// Ends a sign-in on the hosted page as every hosted method ends: the checks of
    /// `finishSignIn`, then an auth code for `app` (60 seconds, once) whose session starts at
    /// `aal2` (a `SecondFactorProof` of the passkey, checked again when it is exchanged), minted
    /// in one transaction with the passkey's counter; the redirect to the app's callback on
    /// `platform` with `?code=`. The hosted page carries no PKCE challenge (as its other methods),
    /// so the code is bound to none. Every refusal of the credential is
    /// `PasskeyError.verificationFailed`, and so is a passkey that does not `provesBothFactors`
    /// (the page has no second step after a passkey).
    public func finishHostedSignIn(
        challengeID: String, credential: JSONValue, app: App, platform: SignInPlatform, sourceIP: String?
    ) async throws -> (user: User, redirect: String) {
        let callback = try platform.callback(of: app)
        let (passkey, assertion, user) = try await verified(
            challengeID: challengeID, credential: credential, app: app, sourceIP: sourceIP)
        // The hosted page has no step after a passkey: one that proves one factor only (added at
        // aal1 before the user turned MFA on) signs in there by the user's other ways.
        guard try await provesBothFactors(passkey) else {
            throw PasskeyError.verificationFailed(reason: "a passkey added at aal1 before the user's second factor")
        }
        let (code, mint) = sessions.codes.minting(
            app: app.id, user: user, provider: "passkey", isNewUser: false, codeChallenge: nil,
            secondFactor: SecondFactorProof(method: Self.secondFactorMethod, factorID: passkey.id))
        do {
            try await store.transactWrite([
                mint, passkeys.use(passkey, count: assertion.signCount, backedUp: assertion.backedUp),
            ])
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            // Another sign-in with the same counter won, or the passkey was removed meanwhile.
            throw PasskeyError.verificationFailed(reason: "the passkey changed during the sign-in")
        }
        return (user, "\(callback)?code=\(code)")
    }
}
