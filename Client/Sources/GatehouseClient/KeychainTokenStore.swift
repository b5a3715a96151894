#if canImport(Security)
import Foundation
import Security

/// Tokens in the Keychain, on Apple platforms: one generic-password item (`service`,
/// `account`) holding the tokens' JSON, readable after the device's first unlock and never
/// synced or restored to another device (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
///
/// Not compiled where the library is built and tested (Linux, which has no Security framework);
/// it is written against Security's documented API.
public struct KeychainTokenStore: TokenStore {
    public let service: String
    public let account: String

    /// The item `service` (the app's bundle id, say) and `account`.
    public init(service: String = "gatehouse", account: String = "tokens") {
        self.service = service
        self.account = account
    }

    /// The attributes that name the item. On macOS, the data-protection keychain (the iOS-style
    /// one): the file-based keychain macOS otherwise uses ignores `kSecAttrAccessible`.
    private var query: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        #if os(macOS)
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
        return query
    }

    public func load() async throws -> GatehouseTokens? {
        var search = query
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return try JSONDecoder().decode(GatehouseTokens.self, from: data)
    }

    public func save(_ tokens: GatehouseTokens) async throws {
        let data = try JSONEncoder().encode(tokens)
        let update: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let updated = SecItemUpdate(query as CFDictionary, update as CFDictionary)
        if updated == errSecSuccess { return }
        guard updated == errSecItemNotFound else { throw KeychainError(status: updated) }
        var item = query
        for (key, value) in update { item[key] = value }
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw KeychainError(status: added) }
    }

    public func clear() async throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed: its `OSStatus`.
public struct KeychainError: Error, Sendable, Equatable {
    public let status: OSStatus
}
#endif
