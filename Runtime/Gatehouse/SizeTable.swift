import Foundation
import Packaging

/// `gatehouse package`'s account of a bootstrap's bytes by module: so that a binary's growth
/// has a name (Foundation, BoringSSL, NIOCore, one of ours).
enum SizeTable {
    /// One line per group, largest first (the first `limit`, then the rest summed), then what
    /// no symbol names; shares of the stripped bootstrap.
    static func lines(_ sizes: ModuleSizes, limit: Int?, indent: String) -> String {
        // In full, every group of 10 kB or more: the rest are a few generic names mangled like
        // modules, and symbols of the compiler's own.
        let shown = limit.map { Array(sizes.groups.prefix($0)) } ?? sizes.groups.filter { $0.bytes >= 10_000 }
        var lines = shown.map { "\(indent)\(format($0.bytes, of: sizes.fileBytes))  \($0.name)" }
        let rest = sizes.groups.dropFirst(shown.count)
        if !rest.isEmpty {
            let bytes = rest.reduce(0) { $0 + $1.bytes }
            lines.append(
                "\(indent)\(format(bytes, of: sizes.fileBytes))  \(rest.count) more modules (--sizes lists them)")
        }
        lines.append(
            "\(indent)\(format(sizes.unattributed, of: sizes.fileBytes))  unattributed (metadata, literals, relocations, headers)"
        )
        return lines.joined(separator: "\n")
    }

    static func format(_ bytes: Int, of total: Int) -> String {
        let megabytes = String(format: "%6.2f MB", Double(bytes) / 1_000_000)
        let share = total > 0 ? String(format: "%5.1f%%", 100 * Double(bytes) / Double(total)) : "    -"
        return "\(megabytes) \(share)"
    }
}
