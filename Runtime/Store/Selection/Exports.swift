// The store contract (KeyValueStore, Item, StoreClock, …) comes with the store a function opens,
// as it comes with `Store`.
@_exported import StoreCore
