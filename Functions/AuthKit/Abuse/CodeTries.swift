import GatehouseJSON
import StoreCore

/// Tries at one issued code (a phone code, an email code), counted on the code's own item
/// before it is compared: the store's atomic add, on the condition that the item is still that
/// code (its `identity` attribute unchanged), so however many tries race, no more than `limit`
/// are compared, and a code replaced or used meanwhile is never tried. Nothing locks the number
/// or address the code was sent to: once its tries are spent, the code is dead, and the next one
/// issued has tries of its own.
public enum CodeTries {
    /// Adds a try to the code at `key` in `table`: whether this try may compare it (false when the
    /// item is no longer the code `identity` names, or this try is past the code's `limit`).
    public static func count(
        at key: ItemKey, in table: String, identity: (name: String, value: JSONValue), limit: Int,
        store: any KeyValueStore
    ) async throws -> Bool {
        do {
            let counted = try await store.update(
                table, key: key, actions: [.add("tries", 1)], condition: .attributeEquals(identity.name, identity.value)
            )
            guard let tries = counted["tries"]?.numberValue else { return false }
            return tries <= Double(limit)
        } catch StoreError.conditionFailed {
            return false
        }
    }
}
