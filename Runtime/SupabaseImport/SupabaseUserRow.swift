import AuthKit
import GatehouseJSON

/// One row of Supabase's `auth.users` joined with its `auth.identities` (the query in
/// docs/supabase.md), read into the Gatehouse user it becomes: the same id, address, phone,
/// confirmation and sign-in times, metadata, identities, ban (`banned_until`, kept as it is: one
/// that has lapsed bans no one), and the bcrypt (or Gatehouse's scrypt) hash as it is.
struct SupabaseUserRow {
    let user: User
    /// What the user is indexed under: its address, its phone, each provider subject.
    let identities: [SignInIdentity]
    /// The bcrypt hash, checked (`BcryptHash`) but kept as Supabase wrote it, or a Gatehouse scrypt hash.
    let passwordHash: String?
    /// What the row had that the user does not keep.
    let leftOut: [String]
    /// Its second factors (the `factors` column): what comes over, and what does not and why.
    let factors: SupabaseFactorList

    /// Why a row is not imported.
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// A value that cannot be read (the column and why).
        case bad(String)
        /// A password hash that is not bcrypt at a cost Gatehouse checks.
        case unsupportedHash(BcryptHash.Refusal)
        /// A user Gatehouse does not keep (deleted, anonymous).
        case notActive(String)

        var description: String {
            switch self {
            case .bad(let why): "bad row: \(why)"
            case .unsupportedHash(let refusal): "unsupported hash: \(refusal)"
            case .notActive(let why): "not imported: \(why)"
            }
        }
    }

    /// The most JSON a user's or app's metadata may hold, as `PUT /user` allows.
    static let maximumMetadataBytes = 16 * 1024
    /// The most identities one user may bring (each is an item of its transaction).
    static let maximumIdentities = 20

    /// Reads `row` (a JSON object's members, or a CSV record by column).
    init(_ row: [String: JSONValue]) throws(Problem) {
        let values = RowValues(row: row)
        guard let id = try values.text("id").flatMap(UUIDText.canonical) else { throw .bad("id is not a UUID") }
        if try values.flag("is_anonymous") == true { throw .notActive("an anonymous user") }
        if try values.time("deleted_at") != nil { throw .notActive("deleted") }
        let email = try values.text("email").map { text throws(Problem) in
            guard let address = EmailAddress(text) else { throw .bad("email is not an address") }
            return address
        }
        guard let createdAt = try values.time("created_at") else { throw .bad("created_at is missing") }
        var user = User(
            id: id, email: email?.value, createdAt: createdAt, updatedAt: try values.time("updated_at") ?? createdAt,
            lastSignInAt: try values.time("last_sign_in_at"), metadata: try values.object("raw_user_meta_data"))
        user.emailConfirmedAt = email == nil ? nil : try values.time("email_confirmed_at")
        user.bannedUntil = try values.time("banned_until")
        user.appMetadata = try values.object("raw_app_meta_data").filter {
            $0.key != "provider" && $0.key != "providers"
        }
        user.name = Self.name(in: user.metadata)
        var leftOut: [String] = []
        try Self.phone(values, of: &user, leftOut: &leftOut)
        var identities = try Self.identities(values.list("identities"), of: &user, leftOut: &leftOut)
        Self.dropUnconfirmedEmail(of: &user, identities: &identities, leftOut: &leftOut)
        self.user = user
        self.identities = identities
        passwordHash = try Self.passwordHash(values.text("encrypted_password"))
        self.leftOut = leftOut
        factors = SupabaseFactorList(try values.list("factors"))
    }

    /// An address Supabase never confirmed, on a user who signs in another way (a confirmed
    /// phone, another provider), is left out: it may be someone else's address. Kept, it would be
    /// a pending sign-up's, which a new sign-up of that address replaces (deleting this user
    /// and stranding its other identities), and which its real owner's confirmation would join,
    /// handing them an account whose phone or provider is someone else's. A user with only an
    /// unconfirmed address is imported as the pending sign-up it is.
    static func dropUnconfirmedEmail(
        of user: inout User, identities: inout [SignInIdentity], leftOut: inout [String]
    ) {
        guard let email = user.email, user.emailConfirmedAt == nil,
            user.phone != nil || user.providers.keys.contains(where: { $0 != "email" })
        else { return }
        user.email = nil
        user.providers["email"] = nil
        identities.removeAll {
            if case .email(let address) = $0 { return address.value == email }
            return false
        }
        leftOut.append("its unconfirmed email (it signs in another way)")
    }

    /// The row's phone (Supabase keeps it without its `+`), when Supabase confirmed it: a
    /// number never confirmed may be someone else's, and a code sent to it must not sign in to
    /// this account.
    static func phone(_ values: RowValues, of user: inout User, leftOut: inout [String]) throws(Problem) {
        guard let phone = try values.text("phone") else { return }
        guard let number = PhoneNumber(phone.hasPrefix("+") ? phone : "+" + phone) else {
            throw .bad("phone is not an international number")
        }
        if let confirmed = try values.time("phone_confirmed_at") {
            user.phone = number.value
            user.phoneConfirmedAt = confirmed
        } else {
            leftOut.append("its unconfirmed phone")
        }
    }

    /// The user's identities: its address and phone, and each other provider's subject (the
    /// provider's name and Supabase's `provider_id`), recorded in `user.providers` as Gatehouse's
    /// own sign-ins record them, so a later sign-in at that provider finds this user.
    static func identities(
        _ listed: [JSONValue], of user: inout User, leftOut: inout [String]
    ) throws(Problem) -> [SignInIdentity] {
        guard listed.count <= maximumIdentities else { throw .bad("more than \(maximumIdentities) identities") }
        var identities: [SignInIdentity] = []
        if let email = user.email.flatMap(EmailAddress.init) { identities.append(.email(email)) }
        if let phone = user.phone.flatMap(PhoneNumber.init) { identities.append(.phone(phone)) }
        for entry in listed {
            guard let provider = entry["provider"]?.stringValue, !provider.isEmpty, !provider.contains("#"),
                let subject = entry["provider_id"]?.stringValue ?? entry["id"]?.stringValue, !subject.isEmpty
            else { throw .bad("an identity without provider and provider_id") }
            switch provider {
            case "email":
                if let email = user.email {
                    user.providers["email"] = email
                } else {
                    leftOut.append("an email identity without an address")
                }
            case "phone":
                if let phone = user.phone {
                    user.providers["phone"] = phone
                } else {
                    leftOut.append("a phone identity without a confirmed phone")
                }
            default:
                let identity = SignInIdentity.provider(provider, subject: subject)
                guard !identities.contains(identity) else { continue }
                user.providers[identity.entryName(in: user.providers)] = subject
                identities.append(identity)
            }
        }
        return identities
    }

    /// The hash when there is one: bcrypt at a cost Gatehouse checks, or Gatehouse's own scrypt
    /// (from `gatehouse users export --include-password-hashes`), or the row is refused (blank its
    /// `encrypted_password` to import the user without a password).
    static func passwordHash(_ text: String?) throws(Problem) -> String? {
        guard let text, !text.isEmpty else { return nil }
        if PasswordHash(encoded: text) != nil { return text }
        do {
            _ = try BcryptHash(validating: text)
        } catch {
            throw .unsupportedHash(error)
        }
        return text
    }

    /// The display name Supabase's providers leave in the metadata (`full_name` or `name`).
    static func name(in metadata: [String: JSONValue]) -> String? {
        let name = metadata["full_name"]?.stringValue ?? metadata["name"]?.stringValue
        return name.flatMap { $0.isEmpty || $0.count > 200 ? nil : $0 }
    }
}
