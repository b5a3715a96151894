import StoreCore
import Testing

@testable import Store

/// libsqlite3 is loaded at run time: a machine without it gets one line naming the package.
struct SQLiteLibraryTests {
    @Test func aLibraryThatDoesNotLoadIsOneLineNamingItsPackage() {
        let reason = "libsqlite3.so.0: cannot open shared object file: No such file or directory"
        let error = StoreError.libraryUnavailable(SQLiteLibrary.unavailable(reason: reason))
        #expect(
            error.description
                == "libsqlite3.so.0 could not be loaded (\(reason)): install it with `apt-get install libsqlite3-0`")
        #expect(!error.description.contains("\n"))
    }

    @Test func theLibraryLoadsOnThisMachine() throws {
        try SQLiteLibrary.load()
    }
}
