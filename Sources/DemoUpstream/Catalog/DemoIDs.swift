/// How Chinook rows become upstream ids. iTunes and Apple Music share ids (as the real
/// services do); each kind gets its own range so `lookup?id=` can tell them apart.
enum DemoIDs {
    static func artist(_ chinookId: Int) -> Int { 100_000 + chinookId }
    static func album(_ chinookId: Int) -> Int { 200_000 + chinookId }
    static func track(_ chinookId: Int) -> Int { 300_000 + chinookId }
    /// iTunes `music-video` records derived from tracks.
    static func musicVideo(_ chinookTrackId: Int) -> Int { 400_000 + chinookTrackId }
    static func movie(_ index: Int) -> Int { 500_000 + index }

    enum Entity: Equatable {
        case artist(Int)
        case album(Int)
        case track(Int)
        case musicVideo(Int)
    }

    /// The Chinook row an upstream id names, by range; nil for ids outside every range.
    static func entity(_ id: Int) -> Entity? {
        switch id {
        case 100_001..<200_000: .artist(id - 100_000)
        case 200_001..<300_000: .album(id - 200_000)
        case 300_001..<400_000: .track(id - 300_000)
        case 400_001..<500_000: .musicVideo(id - 400_000)
        default: nil
        }
    }

    /// A stable pseudo-random 64-bit value for `seed` (SplitMix64), for derived data.
    static func mix(_ seed: UInt64) -> UInt64 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static let base64URL = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// An 11-character YouTube-style id derived from `seed`.
    static func videoId(_ seed: UInt64) -> String {
        var bits = mix(seed)
        var out = ""
        for _ in 0..<11 {
            out.append(base64URL[Int(bits & 63)])
            bits = bits >> 6 | (bits & 63) << 58
        }
        return out
    }

    /// A URL path slug: ASCII letters and digits lower-cased, every other run of characters one `-`.
    static func slug(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash, !out.isEmpty { out += "-" }
                pendingDash = false
                // ASCII letters and digits only: lower-casing is one bit.
                out.unicodeScalars.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value | 0x20)! : scalar)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "item" : out
    }
}
