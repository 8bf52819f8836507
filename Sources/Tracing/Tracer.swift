/// Makes the root span of each traced request and hands finished spans to its processor.
/// Exists only when tracing is on (`serve --otlp-endpoint`): with tracing off there is no
/// tracer, and code that would make spans finds none (`Span.current == nil`).
public final class Tracer: Sendable {
    let processor: BatchSpanProcessor
    /// Head sampling: the share of new traces (no sampled flag from the client) that are recorded.
    public let sampleRatio: Double
    /// Whether operation spans carry the GraphQL document (`graphql.document`): off by default,
    /// since a document holds what users typed (search terms, names) and can be large.
    public let recordsDocuments: Bool

    public init(processor: BatchSpanProcessor, sampleRatio: Double = 1.0, recordsDocuments: Bool = false) {
        self.processor = processor
        self.sampleRatio = min(max(sampleRatio, 0), 1)
        self.recordsDocuments = recordsDocuments
    }

    /// The server span of a request: in the client's trace under its span when it sent a valid
    /// `traceparent` (recorded as that one says, its `tracestate` kept), else at the root of a
    /// new trace, recorded with probability `sampleRatio`.
    public func serverSpan(_ name: String, parent: TraceParent?) -> Span {
        let sampled: Bool
        if let parent {
            sampled = parent.sampled
        } else if sampleRatio >= 1 {
            sampled = true
        } else {
            sampled = sampleRatio > 0 && Double.random(in: 0..<1) < sampleRatio
        }
        return Span(
            tracer: self, name: name, kind: .server, traceID: parent?.traceID ?? .random(), parentID: parent?.parentID,
            sampled: sampled, traceState: parent?.traceState)
    }

    /// Spans dropped because the export queue was full.
    public var droppedSpans: Int { processor.dropped }
}
