/// The Lambda OS-only runtime a package is made for, and what its image provides.
public enum LambdaTarget: String, Sendable, CaseIterable {
    /// `provided.al2023`: Amazon Linux 2023, glibc 2.34, gcc 11's libstdc++.
    case al2023
    /// `provided.al2`: Amazon Linux 2, glibc 2.26, gcc 7's libstdc++.
    case al2

    /// The runtime identifier in a template.
    public var runtime: String { "provided.\(rawValue)" }

    /// The highest version of each versioned family the image's libraries provide: glibc's,
    /// libstdc++'s (`GLIBCXX`, `CXXABI`) and libgcc_s's (`GCC`).
    public var ceilings: [String: SymbolVersion] {
        switch self {
        case .al2023:
            [
                "GLIBC": SymbolVersion(family: "GLIBC", 2, 34),
                "GLIBCXX": SymbolVersion(family: "GLIBCXX", 3, 4, 29),
                "CXXABI": SymbolVersion(family: "CXXABI", 1, 3, 13),
                "GCC": SymbolVersion(family: "GCC", 11, 0),
            ]
        case .al2:
            [
                "GLIBC": SymbolVersion(family: "GLIBC", 2, 26),
                "GLIBCXX": SymbolVersion(family: "GLIBCXX", 3, 4, 24),
                "CXXABI": SymbolVersion(family: "CXXABI", 1, 3, 11),
                "GCC": SymbolVersion(family: "GCC", 7, 0, 0),
            ]
        }
    }

    /// The glibc the image has: the floor no binary may be above.
    public var glibc: SymbolVersion { ceilings["GLIBC"]! }

    /// Shared libraries the image has, by soname: glibc's own, libgcc_s and libstdc++ (both
    /// images carry them; every Swift binary needs libstdc++ even with a static standard
    /// library). Anything else a binary needs is bundled in `lib/`.
    public var libraries: Set<String> {
        [
            "libc.so.6", "libm.so.6", "libmvec.so.1", "libdl.so.2", "libpthread.so.0", "librt.so.1",
            "libresolv.so.2", "libutil.so.1", "libanl.so.1",
            "libBrokenLocale.so.1", "libnss_files.so.2", "libnss_dns.so.2", "ld-linux-x86-64.so.2",
            "ld-linux-aarch64.so.1", "linux-vdso.so.1", "libgcc_s.so.1", "libstdc++.so.6",
        ]
    }
}
