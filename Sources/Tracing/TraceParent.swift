/// The `traceparent` and `tracestate` headers of W3C Trace Context (Level 1, §3.2 and §3.3):
/// which trace a request belongs to, which span sent it, and whether that span was sampled.
public struct TraceParent: Sendable, Equatable {
    public var traceID: TraceID
    /// The sender's span: the parent of the spans made for this request.
    public var parentID: SpanID
    /// The `sampled` bit of `trace-flags`.
    public var sampled: Bool
    /// The `tracestate` header as received (vendors' entries), passed on unchanged; nil without one.
    public var traceState: String?

    public init(traceID: TraceID, parentID: SpanID, sampled: Bool, traceState: String? = nil) {
        self.traceID = traceID
        self.parentID = parentID
        self.sampled = sampled
        self.traceState = traceState
    }

    /// The header's value: `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
    public var header: String { "00-\(traceID.hex)-\(parentID.hex)-\(sampled ? "01" : "00")" }

    /// Reads a `traceparent` header; nil when it is not a valid one (a new trace is started then,
    /// as §3.2.2 says): wrong length or separators, upper-case or non-hex digits, version `ff`,
    /// an all-zero trace or parent id. A version above 00 is read as 00 when it is at least as
    /// long (§3.2.4: later versions only append fields).
    public init?(header: String, traceState: String? = nil) {
        let bytes = Array(header.utf8)
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
            bytes[52] == UInt8(ascii: "-")
        else { return nil }
        guard let version = Self.byte(bytes[0], bytes[1]), version != 0xff,
            version == 0 ? bytes.count == 55 : (bytes.count == 55 || bytes[55] == UInt8(ascii: "-")),
            let high = HexDigits.value(bytes[3..<19]), let low = HexDigits.value(bytes[19..<35]),
            let parent = HexDigits.value(bytes[36..<52]), let flags = Self.byte(bytes[53], bytes[54])
        else { return nil }
        let traceID = TraceID(high: high, low: low)
        guard traceID.isValid, parent != 0 else { return nil }
        let state = traceState.flatMap { $0.isEmpty || $0.utf8.count > 512 ? nil : $0 }
        self.init(traceID: traceID, parentID: SpanID(parent), sampled: flags & 1 == 1, traceState: state)
    }

    private static func byte(_ high: UInt8, _ low: UInt8) -> UInt8? {
        guard let value = HexDigits.value([UInt8](repeating: UInt8(ascii: "0"), count: 14) + [high, low]) else {
            return nil
        }
        return UInt8(value)
    }
}
