import Foundation

/// Wall-clock time as the stores share it: Unix milliseconds. Entries, claims and counters are
/// read by other processes, so their instants cannot come from a monotonic clock.
public struct WallClock: Sendable {
    /// The current Unix time in milliseconds.
    public let nowMs: @Sendable () -> Int64

    public init(nowMs: @escaping @Sendable () -> Int64) {
        self.nowMs = nowMs
    }

    /// The system clock.
    public static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)) }
}
