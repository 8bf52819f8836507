import Synchronization

/// Request ids for log lines and the `X-Request-Id` response header: the client's own
/// `X-Request-Id` when it is a short plain token (so callers can correlate), otherwise
/// `<8 hex digits of this process>-<counter>`.
final class RequestIDGenerator: Sendable {
    /// The 8 hex digits and the dash.
    private let prefix: [UInt8]
    private let counter = Atomic<Int>(0)

    init() {
        let random = UInt32.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        prefix = Array((String(repeating: "0", count: 8 - hex.count) + hex + "-").utf8)
    }

    func next(incoming: String?) -> String {
        if let incoming, Self.isAcceptable(incoming) { return incoming }
        // Written in place: string interpolation cost a tenth of the log line's time.
        var number = counter.add(1, ordering: .relaxed).newValue
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(number % 10))
            number /= 10
        } while number > 0
        return String(unsafeUninitializedCapacity: prefix.count + digits.count) { out in
            var index = out.initialize(fromContentsOf: prefix)
            for digit in digits.reversed() {
                out[index] = digit
                index += 1
            }
            return index
        }
    }

    /// 1 to 64 characters of `A-Z a-z 0-9 . _ -`: nothing that could forge or break a log line.
    static func isAcceptable(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}
