/// What confirming a sign-up's address does to the password chosen at sign-up
/// (`UserDirectory.confirmEmail`). Whoever confirms proved the mailbox, not that they signed up:
/// the password stays only for the client that signed up, proven by the verifier of the PKCE
/// challenge it signed up with (recorded with the password). A confirmation bound to any other
/// challenge (a resent link's, another client's) drops it.
public enum SignUpPassword: Sendable, Equatable {
    /// Dropped: the owner sets one from the session the confirmation starts.
    case dropped
    /// Kept but unusable until the sign-up's PKCE flow ends at `grant_type=pkce` with the
    /// verifier of `challenge` (`PasswordCredentials.release`); it expires with the sign-up
    /// otherwise. What a link's button does, since the browser pressing it may not be the app's.
    case held(challenge: String)
    /// Kept: the confirmation itself proved the sign-up's client (its link used with the
    /// verifier of `challenge`).
    case kept(challenge: String)
    /// Kept: the implicit flow's confirm page was given the password chosen at sign-up, whose
    /// stored hash is `hash` (it must still be, when the confirmation is written).
    case keptByPassword(hash: String)
    /// Kept: the six-digit code mailed to the address was typed where a sign-up is confirmed
    /// (Supabase's `verifyOTP(email:token:type: .signup)`). Unlike a link, which the mailbox's
    /// owner may press for someone else's sign-up, such a code reaches another client only if
    /// its owner hands it over, and whoever has it has the session it starts anyway: keeping the
    /// password adds nothing to what the code gives. Typed where sign-in codes go (`email`,
    /// `magiclink`), the owner may have mistaken it for their own sign-in's: dropped then. And
    /// dropped for a sign-up that replaced another attempt still waiting (`contested`): the
    /// owner, whose own attempt was replaced, may type the newest code, someone else's.
    /// A number's sign-up (Supabase's `verifyOTP(phone:token:type: .sms)`, one type for sign-up
    /// and sign-in codes) keeps it only with the code texted for that sign-up and nothing else: a
    /// sign-in's request for the number while it is live makes it the sign-in's too (its owner
    /// may type it as their own), and dropped then (`PhoneCodes.marking`).
    case keptByCode
}
