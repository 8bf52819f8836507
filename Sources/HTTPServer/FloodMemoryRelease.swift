/// When to give freed memory back after a connection flood: once the open connections have
/// stayed at a quarter of their peak or less for a second, and that peak was a flood (at least
/// `floodConnections`). Asked on every watchdog tick; answers true once per flood.
///
/// Invariant: `peak` is the most connections open since the last release (or the start).
struct FloodMemoryRelease {
    static let floodConnections = 512
    static let quietNanoseconds: UInt64 = 1_000_000_000

    private(set) var peak = 0
    private var quietSince: UInt64?

    mutating func shouldRelease(open: Int, at now: UInt64) -> Bool {
        peak = max(peak, open)
        guard peak >= Self.floodConnections, open <= peak / 4 else {
            quietSince = nil
            return false
        }
        guard let since = quietSince else {
            quietSince = now
            return false
        }
        guard now &- since >= Self.quietNanoseconds else { return false }
        peak = open
        quietSince = nil
        return true
    }
}
