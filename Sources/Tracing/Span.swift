import Synchronization

/// One span of a trace, from its start to `end()`. Attributes, kind, name and status may be set
/// until it ends; then it goes to its tracer's processor when its trace is sampled (an unsampled
/// span only carries the trace's context to its children and upstream requests).
///
/// `Span.current` is the span the running code is part of: children are made under it, and
/// the upstream requests sent under it carry it in `traceparent`.
public final class Span: Sendable {
    /// The span the running task (or synchronous scope) is part of; nil when tracing is off.
    @TaskLocal public static var current: Span?

    public let traceID: TraceID
    public let spanID: SpanID
    public let parentID: SpanID?
    /// The trace is recorded and exported.
    public let sampled: Bool
    public let traceState: String?
    /// The kind it was made with (`setKind` may change the exported one).
    public let initialKind: SpanKind
    public let tracer: Tracer
    private let state: Mutex<State>

    private struct State {
        var data: SpanData
        var ended = false
    }

    init(
        tracer: Tracer, name: String, kind: SpanKind, traceID: TraceID, parentID: SpanID?, sampled: Bool,
        traceState: String?, startNanos: UInt64 = WallClock.nowNanos()
    ) {
        let spanID = SpanID.random()
        self.tracer = tracer
        self.traceID = traceID
        self.spanID = spanID
        self.parentID = parentID
        self.sampled = sampled
        self.traceState = traceState
        initialKind = kind
        state = Mutex(
            State(
                data: SpanData(
                    name: name, kind: kind, traceID: traceID, spanID: spanID, parentID: parentID,
                    traceState: traceState, startNanos: startNanos, endNanos: startNanos, attributes: [],
                    error: nil)))
    }

    /// This span as the parent of a request it sends (`traceparent`, `tracestate`).
    public var traceParent: TraceParent {
        TraceParent(traceID: traceID, parentID: spanID, sampled: sampled, traceState: traceState)
    }

    /// A new span under this one, started now (or at `startNanos`).
    public func child(_ name: String, kind: SpanKind = .internal, startNanos: UInt64? = nil) -> Span {
        Span(
            tracer: tracer, name: name, kind: kind, traceID: traceID, parentID: spanID, sampled: sampled,
            traceState: traceState, startNanos: startNanos ?? WallClock.nowNanos())
    }

    public func set(_ key: String, _ value: AttributeValue) {
        guard sampled else { return }
        state.withLock { state in
            if let index = state.data.attributes.firstIndex(where: { $0.key == key }) {
                state.data.attributes[index].value = value
            } else {
                state.data.attributes.append((key, value))
            }
        }
    }

    public func set(_ key: String, _ value: String) { set(key, .string(value)) }
    public func set(_ key: String, _ value: Int) { set(key, .int(value)) }
    public func set(_ key: String, _ value: Bool) { set(key, .bool(value)) }

    /// Adds `amount` to an integer attribute (0 when absent).
    public func add(_ key: String, _ amount: Int) {
        guard sampled else { return }
        state.withLock { state in
            if let index = state.data.attributes.firstIndex(where: { $0.key == key }),
                case .int(let value) = state.data.attributes[index].value
            {
                state.data.attributes[index].value = .int(value + amount)
            } else {
                state.data.attributes.append((key, .int(amount)))
            }
        }
    }

    public func rename(_ name: String) {
        state.withLock { $0.data.name = name }
    }

    public func setKind(_ kind: SpanKind) {
        state.withLock { $0.data.kind = kind }
    }

    /// Status `ERROR` with `description` (which must hold no secret).
    public func fail(_ description: String) {
        state.withLock { $0.data.error = description }
    }

    /// Ends the span now (or at `endNanos`); later calls do nothing.
    public func end(at endNanos: UInt64? = nil) {
        let data: SpanData? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            state.data.endNanos = max(state.data.startNanos, endNanos ?? WallClock.nowNanos())
            return state.data
        }
        if sampled, let data { tracer.processor.enqueue(data) }
    }

    /// `body` run with a child span named `name` as `Span.current`, ended after it.
    public func inChild<T>(_ name: String, kind: SpanKind = .internal, _ body: (Span) throws -> T) rethrows -> T {
        let span = child(name, kind: kind)
        defer { span.end() }
        return try Span.$current.withValue(span) { try body(span) }
    }

    /// `inChild` for async work.
    public func inChild<T, E: Error>(
        _ name: String, kind: SpanKind = .internal, _ body: (Span) async throws(E) -> T
    ) async throws(E) -> T {
        let span = child(name, kind: kind)
        defer { span.end() }
        let result: Result<T, E> = await Span.$current.withValue(span) {
            do throws(E) {
                return .success(try await body(span))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
