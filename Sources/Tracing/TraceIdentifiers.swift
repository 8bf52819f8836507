/// A W3C Trace Context trace id: 16 bytes, not all zero (Trace Context §3.2.2.3).
public struct TraceID: Sendable, Hashable {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A fresh random id (never all zero).
    public static func random() -> TraceID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let id = TraceID(high: generator.next(), low: generator.next())
            if id.isValid { return id }
        }
    }

    public var isValid: Bool { high != 0 || low != 0 }

    /// 32 lower-case hex digits.
    public var hex: String { HexDigits.string(high) + HexDigits.string(low) }
}

/// A W3C Trace Context parent id (span id): 8 bytes, not all zero.
public struct SpanID: Sendable, Hashable {
    public let value: UInt64

    public init(_ value: UInt64) { self.value = value }

    /// A fresh random id (never zero).
    public static func random() -> SpanID {
        var generator = SystemRandomNumberGenerator()
        while true {
            let value: UInt64 = generator.next()
            if value != 0 { return SpanID(value) }
        }
    }

    /// 16 lower-case hex digits.
    public var hex: String { HexDigits.string(value) }
}

/// Fixed-width lower-case hex of 64-bit numbers, and back.
enum HexDigits {
    private static let digits = Array("0123456789abcdef".utf8)

    static func string(_ value: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { bytes[index] = digits[Int((value >> UInt64(60 - 4 * index)) & 0xf)] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of exactly 16 lower-case hex digits; nil for anything else.
    static func value<S: Collection>(_ text: S) -> UInt64? where S.Element == UInt8 {
        guard text.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in text {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
