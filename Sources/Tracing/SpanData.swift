/// What a span is for (OpenTelemetry `SpanKind`; the raw values are OTLP's).
public enum SpanKind: Int, Sendable {
    case `internal` = 1
    case server = 2
    case client = 3
}

/// An attribute's value: the OTLP `AnyValue` kinds this server sets.
public enum AttributeValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
}

/// A finished span, as exported.
public struct SpanData: Sendable {
    public var name: String
    public var kind: SpanKind
    public var traceID: TraceID
    public var spanID: SpanID
    public var parentID: SpanID?
    public var traceState: String?
    /// Wall-clock times, nanoseconds since the Unix epoch.
    public var startNanos: UInt64
    public var endNanos: UInt64
    public var attributes: [(key: String, value: AttributeValue)]
    /// The description of an `ERROR` status; nil for `UNSET`.
    public var error: String?
}
