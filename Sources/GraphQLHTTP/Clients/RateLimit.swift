/// How many requests a client may send: `count` per `periodMs` on average, `burst` at once.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var count: Int
    public var periodMs: Int
    /// Requests that may arrive together; `count` by default.
    public var burst: Int

    public init(count: Int, periodMs: Int, burst: Int? = nil) {
        self.count = max(1, count)
        self.periodMs = max(1, periodMs)
        self.burst = max(1, burst ?? count)
    }

    /// `N/s` or `N/m` (N from 1 to 1,000,000).
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].allSatisfy(\.isASCII), let count = Int(parts[0]),
            (1...1_000_000).contains(count)
        else { return nil }
        switch parts[1] {
        case "s": self.init(count: count, periodMs: 1_000)
        case "m": self.init(count: count, periodMs: 60_000)
        default: return nil
        }
    }

    /// Microseconds between requests at the average rate (the GCRA emission interval), at least 1.
    public var emissionIntervalUs: Int64 { max(1, Int64(periodMs) * 1_000 / Int64(count)) }

    /// How far ahead of its theoretical arrival time a request may come (the GCRA tolerance):
    /// `burst - 1` intervals.
    public var toleranceUs: Int64 { emissionIntervalUs * Int64(burst - 1) }

    /// The `RateLimit-Policy` value (IETF draft `RateLimit` header fields): `q` requests per `w`
    /// seconds.
    func policy(name: String) -> String {
        "\"\(name)\";q=\(count);w=\(max(1, periodMs / 1_000))"
    }

    public var description: String { "\(count)/\(periodMs == 60_000 ? "m" : "s") burst \(burst)" }
}
