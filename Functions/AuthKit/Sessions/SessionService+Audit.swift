extension SessionService {
    /// Records a sign-in code refused with `error` (wrong, limited or locked) at `identity`, a
    /// number or an address, as a refused sign-in of its user, if any: the user is read after
    /// the answer, not while the caller waits.
    func recordRefusedCode(_ error: any Error, at identity: SignInIdentity, app: String) async {
        let users = users
        await audit.record(.signIn, app: app, outcome: .failure(AuditFailureReason(refusing: error)), method: .otp) {
            try await users.user(identity)?.id
        }
    }
}
