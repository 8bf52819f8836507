import GraphQL
import HTTPServer
import HTTPTypes
import Tracing

/// The spans of one GraphQL request (OpenTelemetry semantic conventions for HTTP servers and
/// GraphQL): a SERVER span for the HTTP exchange, INTERNAL ones for parsing, validation, each
/// operation (`{graphql.operation.type} {graphql.operation.name}`) and its execution.
enum RequestTracing {
    /// The SERVER span of a request to the GraphQL endpoint, in the client's trace when its
    /// `traceparent` is valid (a new trace otherwise).
    static func serverSpan(_ tracer: Tracer, for request: HTTPRequest, route: String) -> Span {
        let parent = request.headers["traceparent"].flatMap {
            TraceParent(header: $0, traceState: request.headers.values(for: "tracestate").joined(separator: ","))
        }
        let method = knownMethods.contains(request.method.rawValue) ? request.method.rawValue : "_OTHER"
        let span = tracer.serverSpan("\(method) \(route)", parent: parent)
        span.set("http.request.method", method)
        span.set("http.route", route)
        span.set("url.path", route)
        span.set("url.scheme", "http")
        return span
    }

    private static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "OPTIONS"]

    /// `answer` with its later work run under `span` (`Span.current`): the HTTP server runs it in
    /// a task of its own, where the binding of `respond(to:)` is gone.
    static func answer(_ answer: HTTPAnswer, under span: Span) -> HTTPAnswer {
        switch answer {
        case .now, .delayed: return answer
        case .later(let work): return .later { await Span.$current.withValue(span) { await work() } }
        }
    }

    /// Ends a server span with the status the client was given (5xx is an error, as the HTTP
    /// server conventions say).
    static func end(_ span: Span, status: Int) {
        span.set("http.response.status_code", status)
        if status >= 500 { span.fail(String(status)) }
        span.end()
    }
}

/// The parse and validate spans of one document, started and ended as `prepareDocument` tells
/// its phases; only made for a document the cache did not hold.
final class DocumentPhaseSpans {
    private let parent: Span
    private var open: Span?

    init(parent: Span) { self.parent = parent }

    func mark(_ phase: DocumentPhase) {
        switch phase {
        case .parse:
            open = parent.child("graphql.parse")
        case .validate:
            open?.end()
            open = parent.child("graphql.validate")
        case .done(let succeeded):
            if !succeeded { open?.fail("document rejected") }
            open?.end()
            open = nil
        }
    }
}

/// The operation span of one executed operation and its execute span under it (none for the
/// elements of a batch, which run together under one execute span of the request's).
struct OperationSpans: Sendable {
    let operation: Span
    let execute: Span?

    /// Under `parent` (by default `Span.current`); nil when there is none (tracing off).
    static func start(
        _ request: ExecutableRequest, under parent: Span? = Span.current, executing: Bool = true
    ) -> OperationSpans? {
        guard let parent else { return nil }
        let identity = request.document.operationIdentity(named: request.operationName)
        let typeName: String? =
            switch identity?.type {
            case .query?: "query"
            case .mutation?: "mutation"
            case .subscription?: "subscription"
            case nil: nil
            }
        let operationName = identity?.name
        let name = [typeName, operationName].compactMap { $0 }.joined(separator: " ")
        let operation = parent.child(name.isEmpty ? "GraphQL Operation" : name)
        if let typeName { operation.set("graphql.operation.type", typeName) }
        if let operationName { operation.set("graphql.operation.name", operationName) }
        // Only when asked (`--trace-documents`): a document holds what users typed.
        if parent.tracer.recordsDocuments { operation.set("graphql.document", request.document.source.body) }
        return OperationSpans(operation: operation, execute: executing ? operation.child("graphql.execute") : nil)
    }

    /// `body` with the execute span as `Span.current`.
    func run<T>(_ body: () -> T) -> T { Span.$current.withValue(execute ?? operation, operation: body) }

    /// `run` for async work.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await Span.$current.withValue(execute ?? operation) { await body() }
    }

    /// Ends both spans, as failed when the outcome was a rejection or carried errors.
    func end(_ outcome: GraphQLHTTPOutcome) {
        end(failure: Self.failure(outcome))
    }

    /// Ends both spans, as failed with `failure` when there is one.
    func end(failure: String? = nil) {
        if let failure {
            execute?.fail(failure)
            operation.fail(failure)
        }
        execute?.end()
        operation.end()
    }

    private static func failure(_ outcome: GraphQLHTTPOutcome) -> String? {
        switch outcome.result {
        case .rejected: "operation rejected"
        case .executed(let result): result.errors.isEmpty ? nil : "\(result.errors.count) errors"
        }
    }
}
