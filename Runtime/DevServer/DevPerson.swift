import AuthKit
import Foundation
import GatehouseJSON

/// Whoever signs in at the dev provider: an email address, a name, and the provider they chose
/// on its page (Google or Apple, by Cognito's names).
struct DevPerson: Sendable, Equatable {
    let email: EmailAddress
    let name: String
    /// `Google` or `SignInWithApple`.
    let providerName: String

    /// `name`, or one made from the address (`grace.hopper@…` → `Grace Hopper`) when blank.
    init(email: EmailAddress, name: String?, providerName: String) {
        self.email = email
        let given = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.name = given.isEmpty ? DisplayName.from(email: email) ?? email.value : String(given.prefix(100))
        self.providerName = providerName
    }

    /// The Cognito names the dev provider knows, and how its page shows them.
    static let providers = [("Google", "Google"), ("SignInWithApple", "Apple")]

    /// The subject: the same for the same address and provider across runs, so a second sign-in
    /// finds the account the first one made (shaped like Cognito's, a UUID).
    var subject: String {
        let characters = Array(SHA256Hex.of("\(providerName):\(email.value)".utf8).prefix(32))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// The id token's claims about the person, as Cognito puts them for a federated user.
    var claims: [String: JSONValue] {
        [
            "sub": .string(subject), "email": .string(email.value), "email_verified": true, "name": .string(name),
            "cognito:username": .string("\(providerName)_\(subject)"),
            "identities": [
                ["providerName": .string(providerName), "userId": .string(subject), "primary": "true"]
            ],
        ]
    }
}
