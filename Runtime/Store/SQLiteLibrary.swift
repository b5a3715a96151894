import CSQLite
import StoreCore

/// libsqlite3, which the store loads at run time (see CSQLite) rather than links.
enum SQLiteLibrary {
    /// The Debian package that has `libsqlite3.so.0`.
    static let package = "libsqlite3-0"

    /// Loads the library, once per process; when it cannot, throws one line that says why and
    /// which package to install.
    static func load() throws(StoreError) {
        if let reason = gatehouse_sqlite_load() {
            throw .libraryUnavailable(unavailable(reason: String(cString: reason)))
        }
    }

    /// What a failed load is reported as: the library, the loader's reason, the package.
    static func unavailable(reason: String) -> String {
        "\(GATEHOUSE_SQLITE_LIBRARY) could not be loaded (\(reason)): install it with `apt-get install \(package)`"
    }
}
