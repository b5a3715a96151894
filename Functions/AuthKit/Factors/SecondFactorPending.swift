import GatehouseJSON
import StoreCore

/// The hosted sign-in's second step (`SecondFactorSignIn`) as its item in `Factors` holds it.
struct SecondFactorPending {
    let handle: String
    let key: ItemKey
    let userID: String
    let app: String
    let callback: String
    let provider: String
    let isNewUser: Bool
    let codeChallenge: String?
    /// The SHA-256 (hex) of the browser secret.
    let browser: String
    let tries: Int
    /// Seconds since 1970.
    let expiresAt: Double

    init?(_ item: Item, handle: String) {
        guard case .string(let userID)? = item["userId"], let entry = item["entry"],
            case .string(let app)? = item["app"], case .string(let callback)? = item["callback"],
            case .string(let provider)? = item["provider"], case .bool(let isNewUser)? = item["isNewUser"],
            case .string(let browser)? = item["browser"], case .number(let tries)? = item["tries"],
            case .number(let expiresAt)? = item["expiresAt"]
        else { return nil }
        self.handle = handle
        key = ItemKey(.string(userID), entry)
        self.userID = userID
        self.app = app
        self.callback = callback
        self.provider = provider
        self.isNewUser = isNewUser
        codeChallenge = item["codeChallenge"]?.stringValue
        self.browser = browser
        self.tries = Int(tries)
        self.expiresAt = expiresAt
    }

    /// The page after a wrong code.
    func step(_ factors: [Factor], triesLeft: Int) -> SecondFactorSignIn.Step {
        SecondFactorSignIn.Step(
            handle: handle, factors: factors.map { .init(id: $0.id, name: $0.friendlyName) }, callback: callback,
            cookie: nil, triesLeft: triesLeft)
    }
}
