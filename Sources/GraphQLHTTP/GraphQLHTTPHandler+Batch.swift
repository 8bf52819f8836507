import GraphQL
import HTTPServer
import HTTPTypes
import Synchronization
import Tracing

/// Request batching (GraphQL over HTTP, "Request Batching" appendix; Apollo's BatchHttpLink,
/// gql's batching transports): a POST body holding a JSON array of GraphQL requests is answered
/// 200 with a JSON array of GraphQL responses in the same order. Each element is a request of
/// its own (its own errors, extensions and persisted-document handling); the elements that
/// execute run together through `ExecuteBatch`, under one request deadline. The whole batch is
/// refused (400) when batching is off, when it is empty or longer than `maxBatchSize`; an
/// element that is not a request (not an object, a malformed parameter, an unknown hash…) gets
/// its own error response and the others still answer.
extension GraphQLHTTPHandler {
    /// One element of a batch on its way to an answer.
    enum BatchSlot {
        case answered(GraphQLAnswer)
        case ready(ReadyOperation)
        case lookUp(PendingOperation)
    }

    /// Whether a POST body is a batch: its first byte that is not JSON whitespace is `[`.
    static func isBatch(_ body: [UInt8]) -> Bool {
        body.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "[")
    }

    /// Reads a batch and admits each element; answers at once when nothing needs to wait.
    func admitBatch(_ body: [UInt8], media: GraphQLResponseMediaType) -> Admission {
        let elements: [JSONValue]
        do {
            guard case .array(let array) = try JSONReader.parse(body) else {
                return .answered(
                    GraphQLResponseWriter.failure(.badRequest(Malformed.bodyNotObject.message), media: media))
            }
            elements = array
        } catch {
            return .answered(
                GraphQLResponseWriter.failure(.badRequest(Malformed.bodyNotJSON(error).message), media: media))
        }
        guard configuration.maxBatchSize > 0 else {
            return .answered(GraphQLResponseWriter.failure(.batchingNotEnabled, media: media))
        }
        guard !elements.isEmpty else { return .answered(GraphQLResponseWriter.failure(.emptyBatch, media: media)) }
        guard elements.count <= configuration.maxBatchSize else {
            return .answered(
                GraphQLResponseWriter.failure(
                    .batchLimitExceeded(count: elements.count, max: configuration.maxBatchSize), media: media))
        }
        var slots: [BatchSlot] = []
        slots.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                slots.append(
                    .answered(
                        GraphQLResponseWriter.answer(
                            for: .badRequest(
                                "Batch element \(index) is not a GraphQL request: each element must be a JSON object "
                                    + "with a \"query\" string (or a persisted document's id)."), media: media)))
                continue
            }
            let parameters = Result(catching: { () throws(Malformed) in
                try GraphQLRequestParameters.fromJSONObject(object)
            })
            switch admitOperation(parameters, isGET: false, media: media) {
            case .answered(let answer): slots.append(.answered(answer))
            case .ready(let operation): slots.append(.ready(operation))
            case .lookUp(let pending): slots.append(.lookUp(pending))
            }
        }
        answerNow(&slots, media: media)
        guard slots.allSatisfy({ if case .answered = $0 { true } else { false } }) else { return .batch(slots, media) }
        let answers = slots.compactMap { slot -> GraphQLAnswer? in if case .answered(let a) = slot { a } else { nil } }
        return .answered(batchResponse(answers, media), report: Self.total(answers.map(\.report)))
    }

    typealias Malformed = GraphQLRequestParameters.Malformed

    /// Answers the ready elements that `executeNow` can answer (kept results).
    private func answerNow(_ slots: inout [BatchSlot], media: GraphQLResponseMediaType) {
        guard let executeNow else { return }
        for index in slots.indices {
            guard case .ready(let operation) = slots[index] else { continue }
            let request = operation.request
            if let outcome = executeNow(request.document, request.operationName, request.variables) {
                // Its operation span too (tracing on): answered from a kept result, it ran nothing.
                OperationSpans.start(request, executing: false)?.end(outcome)
                slots[index] = .answered(answer(for: outcome, of: operation, media: media))
            }
        }
    }

    /// Looks up the elements' documents, then runs every ready element in one `ExecuteBatch`
    /// call under the request deadline (when it passes, the elements that finished answer with
    /// what they got and the others `REQUEST_TIMEOUT`, still one array); a client that
    /// hangs up has its 499 logged with the upstream requests sent, as `executeUnderDeadline`.
    func executeBatchUnderDeadline(
        _ slots: [BatchSlot], media: GraphQLResponseMediaType, abandonment: RequestAbandonment
    ) async -> (HTTPResponse, RequestReport) {
        var slots = slots
        await withTaskGroup(of: (Int, OperationAdmission).self) { group in
            for (index, slot) in slots.enumerated() {
                guard case .lookUp(let pending) = slot else { continue }
                group.addTask { (index, await self.admitLookedUp(pending, media: media)) }
            }
            for await (index, admission) in group {
                switch admission {
                case .answered(let answer): slots[index] = .answered(answer)
                case .ready(let operation): slots[index] = .ready(operation)
                case .lookUp(let pending): slots[index] = .lookUp(pending)
                }
            }
        }
        answerNow(&slots, media: media)
        let ready = slots.enumerated().compactMap { index, slot -> (Int, ReadyOperation)? in
            if case .ready(let operation) = slot { (index, operation) } else { nil }
        }
        if !ready.isEmpty {
            let requests = ready.map(\.1.request)
            let executeBatch = self.executeBatch
            let metrics = self.metrics
            let early = Mutex<[Int: GraphQLHTTPOutcome]>([:])
            // One operation span per element; the batch runs as one, under one execute span.
            let spans = requests.compactMap { OperationSpans.start($0, executing: false) }
            let execute = Span.current?.child("graphql.execute")
            let outcomes = await withDeadline(
                timeoutMs: configuration.requestTimeoutMs, scheduler: deadlines,
                abandoned: { outcomes in metrics.recordLateUpstream(Self.total(outcomes.map(\.report))) },
                waitsWhenCancelled: { abandonment.reason == .clientClosed },
                {
                    await Span.$current.withValue(execute) {
                        await executeBatch(requests) { position, outcome in
                            early.withLock { $0[position] = outcome }
                        }
                    }
                })
            execute?.end()
            let ended = early.withLock { $0 }
            for (position, spans) in spans.enumerated() {
                if let outcomes, position < outcomes.count {
                    spans.end(outcomes[position])
                } else if let outcome = ended[position] {
                    spans.end(outcome)
                } else {
                    spans.operation.end()
                }
            }
            if Task.isCancelled {
                return (
                    GraphQLResponseWriter.failure(.shutDown, media: media),
                    Self.total(outcomes?.map(\.report) ?? [])
                )
            }
            // Past the deadline the batch is still an array, one answer per element: the ones
            // that finished with what they got (their upstream figures are counted when the
            // rest of the batch ends, as a late report), the others REQUEST_TIMEOUT.
            let finished =
                outcomes.map { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($0, $1) }) }
                ?? early.withLock { $0 }.mapValues { outcome in
                    var outcome = outcome
                    outcome.report = RequestReport()
                    return outcome
                }
            for (position, (index, operation)) in ready.enumerated() {
                if let outcome = finished[position] {
                    slots[index] = .answered(answer(for: outcome, of: operation, media: media))
                } else if outcomes == nil {
                    slots[index] = .answered(
                        GraphQLResponseWriter.answer(
                            for: .requestTimeout(ms: configuration.requestTimeoutMs), media: media))
                } else {
                    let missing = GraphQLHTTPOutcome.rejected(
                        [GraphQLError("The application answered fewer operations than the batch held.")], status: 500)
                    slots[index] = .answered(answer(for: missing, of: operation, media: media))
                }
            }
        }
        let answers = slots.compactMap { slot -> GraphQLAnswer? in if case .answered(let a) = slot { a } else { nil } }
        return (batchResponse(answers, media), Self.total(answers.map(\.report)))
    }

    /// The batch's response: 200 (the appendix: the elements' own statuses are discarded), the
    /// answers' bodies as one JSON array, cacheable for as long as its least fresh element.
    private func batchResponse(_ answers: [GraphQLAnswer], _ media: GraphQLResponseMediaType) -> HTTPResponse {
        let answers = withinSizeLimit(answers)
        var body: [UInt8] = [UInt8(ascii: "[")]
        body.reserveCapacity(answers.reduce(2) { $0 + $1.body.count + 1 })
        for (index, answer) in answers.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: answer.body)
        }
        body.append(UInt8(ascii: "]"))
        let maxAge = answers.map { $0.status == .ok ? $0.maxAgeSeconds : 0 }.min() ?? 0
        return response(GraphQLAnswer(status: .ok, body: body, maxAgeSeconds: maxAge), media: media)
    }

    /// `answers` with the largest executed ones (status 200) replaced by the size limit's
    /// `RESPONSE_TOO_LARGE` answer, largest first, until the whole array fits in
    /// `maxResponseBytes`: the limit bounds what the client receives for the batch, not only for
    /// each element. Request errors are kept as they are.
    private func withinSizeLimit(_ answers: [GraphQLAnswer]) -> [GraphQLAnswer] {
        let limit = configuration.maxResponseBytes
        var answers = answers
        var total = answers.reduce(1) { $0 + $1.body.count + 1 }
        guard limit > 0, total > limit else { return answers }
        var replaced: Set<Int> = []
        while total > limit {
            let candidates = answers.indices.filter { answers[$0].status == .ok && !replaced.contains($0) }
            guard let largest = candidates.max(by: { answers[$0].body.count < answers[$1].body.count }) else { break }
            let smaller = GraphQLResponseWriter.tooLarge(
                answers[largest], maxResponseBytes: limit, locations: [], extensions: JSONObject())
            total += smaller.body.count - answers[largest].body.count
            answers[largest] = smaller
            replaced.insert(largest)
        }
        return answers
    }

    /// Reports added up.
    static func total(_ reports: [RequestReport]) -> RequestReport {
        var total = RequestReport()
        for report in reports {
            total.cacheHits += report.cacheHits
            total.deduplicated += report.deduplicated
            for (key, count) in report.upstreamRequests {
                total.recordUpstream(service: key.service, outcome: key.outcome, count: count)
            }
        }
        return total
    }
}
