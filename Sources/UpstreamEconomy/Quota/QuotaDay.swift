import Foundation

/// The day an upstream counts its quota in, in the time zone of its traits
/// (`UpstreamTraits.timeZone`: UTC unless it says otherwise).
package struct QuotaDay: Sendable, Equatable {
    /// `YYYY-MM-DD` in the provider's time zone: part of the ledger's counter keys.
    package var label: String
    /// The day's bounds in Unix milliseconds, `startMs` included, `endMs` excluded.
    package var startMs: Int64
    package var endMs: Int64

    /// The quota day in `timeZone` at Unix time `ms`.
    package static func of(timeZone: TimeZone, atMs ms: Int64) -> QuotaDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let instant = Date(timeIntervalSince1970: Double(ms) / 1_000)
        let start = calendar.startOfDay(for: instant)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        let label = String(
            format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return QuotaDay(
            label: label, startMs: Int64(start.timeIntervalSince1970 * 1_000),
            endMs: Int64(end.timeIntervalSince1970 * 1_000))
    }

    /// The instant the day ends, as RFC 3339 UTC (`2026-11-30T08:00:00Z`): when the quota resets.
    package var resetsAt: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(endMs) / 1_000))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
