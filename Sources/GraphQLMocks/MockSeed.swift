/// The arithmetic behind deterministic mocks: 64-bit FNV-1a over UTF-8 bytes for names
/// and texts, and the SplitMix64 finalizer to mix seeds. Pure integer arithmetic with
/// wrapping operations, so the same inputs give the same values on every machine and in
/// every process (unlike `Hasher`, which is seeded per process).
public enum MockSeed {
    /// FNV-1a (64-bit) of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        hash(bytes: text.utf8)
    }

    /// FNV-1a (64-bit) of `bytes`.
    public static func hash<Bytes: Sequence>(bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return value
    }

    /// SplitMix64's output function: every bit of `value` affects every bit of the result.
    public static func scramble(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// `seed` combined with `value`, order-sensitive.
    public static func mix(_ seed: UInt64, _ value: UInt64) -> UInt64 {
        scramble(seed ^ scramble(value))
    }

    /// `seed` combined with `text`.
    public static func mix(_ seed: UInt64, _ text: String) -> UInt64 {
        mix(seed, hash(text))
    }

    /// A number in `range` drawn from `seed` (uniform enough for mock data).
    public static func pick(_ seed: UInt64, in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(scramble(seed) % span)
    }

    /// `count` characters of `alphabet` drawn from `seed`.
    public static func characters(_ seed: UInt64, count: Int, from alphabet: String) -> String {
        let letters = Array(alphabet)
        var state = seed
        var out = ""
        for _ in 0..<count {
            state = scramble(state)
            out.append(letters[Int(state % UInt64(letters.count))])
        }
        return out
    }

    /// `count` decimal digits drawn from `seed`, the first one not zero.
    public static func digits(_ seed: UInt64, count: Int) -> String {
        String(
            characters(seed, count: 1, from: "123456789")
                + characters(mix(seed, 1), count: count - 1, from: "0123456789"))
    }
}
