import Testing

@testable import OutboundHTTP

/// libcurl is loaded at run time: a machine without it gets one line naming the package.
struct CurlLibraryTests {
    @Test func aLibraryThatDoesNotLoadIsOneLineNamingItsPackage() {
        let reason = "libcurl.so.4: cannot open shared object file: No such file or directory"
        let error = OutboundHTTPError.libraryUnavailable(CurlLibrary.unavailable(reason: reason))
        #expect(
            error.description
                == "the HTTPS client cannot start: libcurl.so.4 could not be loaded (\(reason)): "
                + "install it with `apt-get install libcurl4`")
        #expect(!error.description.contains("\n"))
    }

    @Test func theLibraryLoadsOnThisMachine() throws {
        try OutboundHTTPClient.preload()
    }
}
