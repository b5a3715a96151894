/// Which admin route a path names (its segments after `/auth/v1/`).
enum SupabaseAdminRoute: Equatable {
    case users
    case user(String)
    case factors(String)
    case factor(String, String)
    case passkeys(String)
    case passkey(String, String)
    case generateLink
    case invite
    /// `GET /admin/audit`: the audit log.
    case audit
    case unknown

    init(_ segments: [String]) {
        switch segments.count {
        case 1 where segments[0] == "invite": self = .invite
        case 2 where segments == ["admin", "users"]: self = .users
        case 2 where segments == ["admin", "generate_link"]: self = .generateLink
        case 2 where segments == ["admin", "invite"]: self = .invite
        case 2 where segments == ["admin", "audit"]: self = .audit
        case 3 where segments[0...1] == ["admin", "users"]: self = .user(segments[2])
        case 4 where segments[0...1] == ["admin", "users"] && segments[3] == "factors": self = .factors(segments[2])
        case 4 where segments[0...1] == ["admin", "users"] && segments[3] == "passkeys": self = .passkeys(segments[2])
        case 5 where segments[0...1] == ["admin", "users"] && segments[3] == "passkeys":
            self = .passkey(segments[2], segments[4])
        case 5 where segments[0...1] == ["admin", "users"] && segments[3] == "factors":
            self = .factor(segments[2], segments[4])
        default: self = .unknown
        }
    }
}
