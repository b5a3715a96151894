// The backend's users see the contract it implements without a second import.
@_exported import StoreCore

/// GRDB has a `TableDefinition` of its own; in this module the name means the store's.
public typealias TableDefinition = StoreCore.TableDefinition
