import Glibc
import Synchronization

/// RFC 3339 UTC timestamps with milliseconds for log lines (`2026-11-29T14:03:07.123Z`),
/// formatting the date and time part once per second rather than once per request.
final class TimestampFormatter: Sendable {
    private let cached = Mutex<(second: Int, prefix: String)>((-1, ""))

    func now() -> String {
        let (second, milliseconds) = Self.currentTime()
        if let prefix = cached.withLock({ $0.second == second ? $0.prefix : nil }) {
            return Self.appendingMillisecondsAndZone(milliseconds, to: prefix)
        }
        let formatted = Self.format((second, milliseconds))
        cached.withLock { $0 = (second, formatted.prefix) }
        return formatted.text
    }

    /// Seconds since the epoch and the milliseconds within that second.
    static func currentTime() -> (second: Int, milliseconds: Int) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int(spec.tv_sec), Int(spec.tv_nsec / 1_000_000))
    }

    /// The whole timestamp, and its part up to the `.` that all timestamps of that second share.
    static func format(_ time: (second: Int, milliseconds: Int)) -> (prefix: String, text: String) {
        var seconds = time_t(time.second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let prefix =
            "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
        return (prefix, appendingMillisecondsAndZone(time.milliseconds, to: prefix))
    }

    /// `prefix`, then `value` as 3 digits and `Z`, written in one go: this runs once per request.
    static func appendingMillisecondsAndZone(_ value: Int, to prefix: String) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 4) { out in
                _ = out.initialize(fromContentsOf: head)
                let digits = min(max(value, 0), 999)
                out[head.count] = UInt8(ascii: "0") + UInt8(digits / 100)
                out[head.count + 1] = UInt8(ascii: "0") + UInt8(digits / 10 % 10)
                out[head.count + 2] = UInt8(ascii: "0") + UInt8(digits % 10)
                out[head.count + 3] = UInt8(ascii: "Z")
                return head.count + 4
            }
        }
    }
}
