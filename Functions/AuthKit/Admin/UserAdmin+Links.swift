import GatehouseJSON
import StoreCore

extension UserAdmin {
    /// The kinds of link `generateLink` makes (Supabase's `generate_link` types).
    public enum LinkType: String, Sendable, CaseIterable {
        case signup, magiclink, recovery, invite
        case emailChangeCurrent = "email_change_current"
        case emailChangeNew = "email_change_new"
    }

    /// A link of `type` for the address `text`, to `app`, returning to `redirectTo` (the app's),
    /// recorded as a mailed one is and returned instead (nothing is sent), with its user:
    /// - `magiclink`: a magic link (`MagicLinks.generate`); a user with the address is made,
    ///   unconfirmed, when there is none (the click confirms it);
    /// - `recovery`: a recovery link (`EmailTokens`) of the address's user; `userNotFound` without;
    /// - `invite`: `invitee`'s confirmation link (its click confirms the address and signs in);
    /// - `signup`, `email_change_current`, `email_change_new`: `UserAdminError.unsupported`.
    public func generateLink(
        _ type: LinkType, email text: String, app: App, redirectTo: String?, metadata: [String: JSONValue]?,
        links: EmailTokens, magicLinks: MagicLinks
    ) async throws -> (user: User, link: EmailedLink) {
        let made = try await link(
            type, email: text, app: app, redirectTo: redirectTo, metadata: metadata, links: links,
            magicLinks: magicLinks)
        await recorded(.adminLinkGenerated, userID: made.user.id)
        return made
    }

    /// `generateLink`'s link, not recorded.
    private func link(
        _ type: LinkType, email text: String, app: App, redirectTo: String?, metadata: [String: JSONValue]?,
        links: EmailTokens, magicLinks: MagicLinks
    ) async throws -> (user: User, link: EmailedLink) {
        let email = try Self.email(text)
        switch type {
        case .magiclink:
            var user = try await users.user(email: email)
            if user == nil { user = try await newUser(email, metadata) }
            guard let user else { throw UserAdminError.userNotFound }
            return (user, try await magicLinks.generate(email: email, app: app, redirectTo: redirectTo))
        case .recovery:
            guard let user = try await users.user(email: email) else { throw UserAdminError.userNotFound }
            let link = try await links.record(
                .recovery, userID: user.id, email: email.value, app: app,
                redirectTo: try AppRedirect.resolve(redirectTo, app: app))
            return (user, link)
        case .invite:
            let user = try await invitee(email, metadata)
            let link = try await links.record(
                .signup, userID: user.id, email: email.value, app: app,
                redirectTo: try AppRedirect.resolve(redirectTo, app: app))
            return (user, link)
        case .signup, .emailChangeCurrent, .emailChangeNew:
            throw UserAdminError.unsupported(
                "generate_link of type \(type.rawValue) (magiclink, recovery and invite are built)")
        }
    }

    /// Invites the address `text` to `app` (Supabase's `inviteUserByEmail`): `invitee`, and the
    /// work, for after the caller's answer, that mails it a confirmation link returning to
    /// `redirectTo` (its click confirms the address and signs in).
    public func invite(
        email text: String, app: App, redirectTo: String?, metadata: [String: JSONValue]?, links: EmailTokens
    ) async throws -> (user: User, mail: @Sendable () async throws -> Void) {
        let email = try Self.email(text)
        let redirect = try AppRedirect.resolve(redirectTo, app: app)
        let user = try await invitee(email, metadata)
        await recorded(.adminInvite, userID: user.id)
        let wording = (
            subject: "You have been invited to \(app.name)",
            lead: "You have been invited to \(app.name). Follow this link to accept:"
        )
        return (
            user,
            { [user] in
                try await links.send(
                    .signup, userID: user.id, email: email.value, app: app, redirectTo: redirect, wording: wording)
            }
        )
    }

    /// The user an invitation is for: a new one with the address, unconfirmed; one whose address
    /// still waits for its confirmation, without the password its sign-up chose (whoever signed
    /// up with an address they could not confirm must not keep a way into the invitee's
    /// account); a confirmed one is `emailExists`.
    func invitee(_ email: EmailAddress, _ metadata: [String: JSONValue]?) async throws -> User {
        guard let user = try await users.user(email: email) else { return try await newUser(email, metadata) }
        guard user.emailIsPending else { throw UserAdminError.emailExists }
        try await store.transactWrite([PasswordCredentials.removal(userID: user.id)])
        return user
    }

    /// A new user with the address, unconfirmed, without a password.
    private func newUser(_ email: EmailAddress, _ metadata: [String: JSONValue]?) async throws -> User {
        try await create(AdminUserFields(email: email.value, userMetadata: metadata), policy: PasswordPolicy())
    }
}
