/// The Lambda OS-only runtime a package is made for, and what its image provides.
public enum LambdaTarget: String, Sendable, CaseIterable {
    /// `provided.al2023`: Amazon Linux 2023, glibc 2.34, gcc 11's libstdc++.
    case al2023
    /// `provided.al2`: Amazon Linux 2, glibc 2.26, gcc 7's libstdc++.
    case al2

    /// The runtime identifier in a template.
    public var runtime: String { "provided.\(rawValue)" }

    /// The shared libraries the image has and the symbol versions they define.
    public var image: ImageManifest {
        switch self {
        case .al2023: .al2023
        case .al2: .al2
        }
    }

    /// The glibc the image has: the floor no binary may be above.
    public var glibc: SymbolVersion { image.libraries["libc.so.6"]!["GLIBC"]! }
}
