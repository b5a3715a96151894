/// The shared libraries a Lambda image provides that Gatehouse's binaries rely on, by soname,
/// each with the symbol-version families it defines and the highest version of each: what
/// `gatehouse package` checks a binary's needs against. A library with no families defines no
/// symbol versions (a binary that needs one of it cannot load there).
///
/// Written from the images' package sets (Amazon Linux 2023 minimal: glibc 2.34, gcc 11's
/// libgcc/libstdc++, OpenSSL 3.0, libcurl-minimal 8; Amazon Linux 2: glibc 2.26, gcc 7's,
/// OpenSSL 1.0.2, libcurl 7.79). libcurl is loaded at run time (see CCurl), so no binary names
/// it; it is listed because the functions' HTTPS client needs it there.
public struct ImageManifest: Sendable {
    /// soname → family → the highest version of that family the library defines.
    public let libraries: [String: [String: SymbolVersion]]

    /// Whether the image has `soname`.
    public func provides(_ soname: String) -> Bool { libraries[soname] != nil }

    /// `provided.al2023`.
    public static let al2023 = ImageManifest(
        glibc: SymbolVersion(family: "GLIBC", 2, 34),
        others: [
            "libgcc_s.so.1": ["GCC": SymbolVersion(family: "GCC", 11, 0)],
            "libstdc++.so.6": [
                "GLIBCXX": SymbolVersion(family: "GLIBCXX", 3, 4, 29),
                "CXXABI": SymbolVersion(family: "CXXABI", 1, 3, 13),
            ],
            // libcurl-minimal: built without versioned symbols (Debian's defines CURL_OPENSSL_4).
            "libcurl.so.4": [:],
            "libssl.so.3": ["OPENSSL": SymbolVersion(family: "OPENSSL", 3, 0, 0)],
            "libcrypto.so.3": ["OPENSSL": SymbolVersion(family: "OPENSSL", 3, 0, 0)],
        ])

    /// `provided.al2`.
    public static let al2 = ImageManifest(
        glibc: SymbolVersion(family: "GLIBC", 2, 26),
        others: [
            "libgcc_s.so.1": ["GCC": SymbolVersion(family: "GCC", 7, 0, 0)],
            "libstdc++.so.6": [
                "GLIBCXX": SymbolVersion(family: "GLIBCXX", 3, 4, 24),
                "CXXABI": SymbolVersion(family: "CXXABI", 1, 3, 11),
            ],
            "libcurl.so.4": [:],
            "libssl.so.10": ["OPENSSL": SymbolVersion(family: "OPENSSL", 1, 0, 2)],
            "libcrypto.so.10": ["OPENSSL": SymbolVersion(family: "OPENSSL", 1, 0, 2)],
        ])

    /// glibc's own libraries, each defining GLIBC versions up to `glibc`, and `others`.
    private init(glibc: SymbolVersion, others: [String: [String: SymbolVersion]]) {
        let glibcLibraries = [
            "libc.so.6", "libm.so.6", "libmvec.so.1", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libresolv.so.2",
            "libutil.so.1", "libanl.so.1", "libBrokenLocale.so.1", "libnss_files.so.2", "libnss_dns.so.2",
            "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
        ]
        var libraries = others
        for name in glibcLibraries { libraries[name] = ["GLIBC": glibc] }
        libraries["linux-vdso.so.1"] = [:]
        self.libraries = libraries
    }
}
