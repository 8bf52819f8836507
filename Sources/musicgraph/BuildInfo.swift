import Foundation

/// What `musicgraph --version` prints: `musicgraph VERSION (COMMIT)`.
///
/// The commit comes from the link, not from a source file: `make build`, `release` and
/// `install` link with the flags `scripts/version.sh` prints, which define the absolute symbol
/// `musicgraph_build_commit` and export it. Its value is not an address but the first 12 hex
/// digits of `git rev-parse HEAD` (bits 0–47), bit 48 always set (so the value is never 0,
/// which dlsym could not tell from absent) and bit 49 set when tracked files differed from
/// HEAD. A generated Swift file would be compiled stale by a later `swift build`, and SwiftPM
/// has no string define; a changed link flag only relinks, so the commit is never stale.
/// `swift build` alone (or `make` outside a git checkout) defines no symbol: the commit is
/// then reported as unknown.
enum BuildInfo {
    static let version = "0.9.0"

    /// The commit the binary was built from, e.g. `1a2b3c4d5e6f` or `1a2b3c4d5e6f-dirty`.
    static var commit: String? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "musicgraph_build_commit") else { return nil }
        let value = UInt64(UInt(bitPattern: symbol))
        guard value >> 48 & 1 == 1 else { return nil }
        let hex = String(value & 0xFFFF_FFFF_FFFF, radix: 16)
        let digits = String(repeating: "0", count: 12 - hex.count) + hex
        return value >> 49 & 1 == 1 ? digits + "-dirty" : digits
    }

    static var versionLine: String {
        "musicgraph \(version) (\(commit ?? "commit unknown: built without make, or outside git"))"
    }
}
