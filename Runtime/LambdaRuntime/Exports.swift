// Events carry arbitrary JSON (authorizer contexts): their value type comes with the runtime.
@_exported import GatehouseJSON
