import GraphQL
import HTTPServer
import HTTPTypes
import Tracing

extension GraphQLHTTPHandler {
    /// The `multipart/mixed` format to answer `operation` in, or nil for an ordinary response:
    /// only when the application executes incrementally, the document uses `@defer` or
    /// `@stream`, the client's `Accept` names a multipart format we serve, and the request is no
    /// HEAD (which has no body to stream).
    func incrementalFormat(for request: HTTPRequest, operation: ReadyOperation) -> IncrementalDeliveryFormat? {
        guard executeIncrementally != nil, operation.request.document.usesIncrementalDelivery,
            request.method != "HEAD"
        else { return nil }
        let accept = request.headers.values(for: "Accept").joined(separator: ", ")
        guard !accept.isEmpty else { return nil }
        return negotiations.decision(for: accept).incremental
    }

    /// Runs an admitted operation incrementally (GraphQL over HTTP incremental delivery RFC).
    ///
    /// When its first payload says nothing was deferred or streamed (or it is a request error)
    /// the answer is the ordinary response. Otherwise it is 200 `multipart/mixed` with each
    /// payload a part, sent as it is produced; the log line and the metrics are written when the
    /// last part is, or when the stream ends early: 504 when `requestTimeoutMs` passed (the
    /// last part then completes what was pending with a `REQUEST_TIMEOUT` error), 200 when the
    /// parts reached `maxResponseBytes` (the last part completes what was pending with a
    /// `RESPONSE_TOO_LARGE` error; a first part over it is an ordinary `data: null` answer), 499
    /// when the client closed its connection, 503 when the server shut down. Either way the execution
    /// and its upstream calls stop. `requestTimeoutMs` bounds the whole answer, first part to
    /// last; before the first part it is the usual 504.
    func executeIncrementallyUnderDeadline(
        _ operation: ReadyOperation, media: GraphQLResponseMediaType, format: IncrementalDeliveryFormat,
        _ request: HTTPRequest, _ start: RequestStart
    ) async -> HTTPResponse {
        guard let run = executeIncrementally else {
            return finish(
                request, response: GraphQLResponseWriter.failure(.shutDown, media: media), report: .init(), start: start
            )
        }
        let requestID = requestIDs.next(incoming: request.headers["X-Request-Id"])
        let metrics = self.metrics
        let client = RequestClient.current
        // The stream may end in another task: its server span is ended with it.
        let span = Span.current
        let response = IncrementalResponse(
            format: format, timeoutMs: configuration.requestTimeoutMs, maxResponseBytes: configuration.maxResponseBytes,
            operationLocations: operation.request.document.operationLocations(named: operation.request.operationName),
            scheduler: deadlines, wroteOwnPart: metrics.incrementalPartSent
        ) { end, report, endedAt in
            let status: Int
            switch end {
            case .completed: status = 200
            case .timedOut: status = GraphQLHTTPError.requestTimeout(ms: 0).status.code
            case .abandoned(.clientClosed): status = GraphQLHTTPError.clientClosedRequest.status.code
            case .abandoned: status = GraphQLHTTPError.shutDown.status.code
            }
            // The answer's duration: until the stream ended for the client (a deadline's last
            // part), not until the stopped execution returned; a gone client's runs to its line.
            let answeredAt: ContinuousClock.Instant? = if case .abandoned(.clientClosed) = end { nil } else { endedAt }
            self.record(
                request, status: status, report: report, start: start, requestID: requestID, answeredAt: answeredAt,
                client: client, span: span)
        }
        let executable = operation.request
        let spans = OperationSpans.start(executable)
        response.run { response in
            @Sendable func execute() async -> RequestReport {
                await run(executable.document, executable.operationName, executable.variables) { part in
                    let wanted = response.deliver(part)
                    if wanted { metrics.incrementalPartSent() }
                    return wanted
                }
            }
            guard let spans else { return await execute() }
            let report = await spans.run { await execute() }
            spans.end()
            return report
        }
        switch await response.start() {
        case .complete(let part):
            guard case .complete(let result) = part.payload else { break }
            let outcome = GraphQLHTTPOutcome.executed(result, extensions: part.extensions, report: part.report)
            let answer = answer(for: outcome, of: operation, media: media)
            return finish(
                request, response: given(request, self.response(answer, media: media), media: media),
                report: answer.report, start: start, requestID: requestID)
        case .streaming:
            let streamed = HTTPResponse(
                status: 200, headers: ["Content-Type": format.contentType, "Cache-Control": "no-store"],
                bodyStream: response.stream)
            return decorate(streamed, for: request, requestID: requestID)
        case .timedOut:
            return finish(
                request,
                response: GraphQLResponseWriter.failure(
                    .requestTimeout(ms: configuration.requestTimeoutMs), media: media),
                report: .init(), start: start, requestID: requestID)
        case .cancelled:
            break
        }
        // The server answered in the handler's place (client gone, shutdown): say what it did.
        return finish(
            request, response: given(request, GraphQLResponseWriter.failure(.shutDown, media: media), media: media),
            report: .init(), start: start, requestID: requestID)
    }
}
