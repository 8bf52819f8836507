import DataLoader
import GraphQL
import Synchronization
import UpstreamEconomy

/// The DataLoaders of one GraphQL request's connector fields: one per call site (`@http` field),
/// made the first time a field of it resolves. Each sends through its upstream's
/// `RequestTransport`, so a declared call gets what a built-in one gets: the shared cache and
/// store, in-flight deduplication across requests and instances, the request's budget, the
/// upstream's daily quota and the client's share, the loaders' memos of answers, and a dry run's
/// plan by query level. A batch connector's loader batches its parents' values up to the
/// declared `max`; any other sends its distinct calls concurrently.
final class ConnectorLoaders: Sendable {
    private let connectors: ConnectorSchema
    private let transport: @Sendable (DeclaredUpstream) -> RequestTransport
    private let scheduler: BatchScheduler
    private let concurrency: Int
    private let memos: AnswerMemos?
    private let reading: MemoReading
    private let stale: StaleValues
    private let dryRun: Bool
    private let made = Mutex<[Int: FieldLoader<ConnectorCall, FieldValue>]>([:])

    /// The memo numbers of the connectors start after the built-in loaders'.
    static let firstMemo = RequestLoaders.Slot.allCases.count

    init(
        connectors: ConnectorSchema, transport: @escaping @Sendable (DeclaredUpstream) -> RequestTransport,
        scheduler: BatchScheduler, concurrency: Int, memos: AnswerMemos?, reading: MemoReading, stale: StaleValues,
        dryRun: Bool
    ) {
        self.connectors = connectors
        self.transport = transport
        self.scheduler = scheduler
        self.concurrency = concurrency
        self.memos = memos
        self.reading = reading
        self.stale = stale
        self.dryRun = dryRun
    }

    /// The loader of `connector` in this request.
    func loader(for connector: HTTPConnector) -> FieldLoader<ConnectorCall, FieldValue> {
        if let found = made.withLock({ $0[connector.index] }) { return found }
        let new = makeLoader(connector)
        return made.withLock { made in
            if let found = made[connector.index] { return found }
            made[connector.index] = new
            return new
        }
    }

    /// The object of `typeName` whose upstream id is `id`, read through the lookup the schema
    /// declares on that type (`@http` on a type); nil when the type has none on `service`.
    func lookup(typeName: String, service: UpstreamService, id: String, at path: [PathComponent]) async throws
        -> FieldValue?
    {
        guard !connectors.lookups.isEmpty, let connector = connectors.lookups[typeName],
            connector.upstream.service == service
        else { return nil }
        let values = TemplateValues(
            arguments: JSONObject([(key: "id", value: .string(id))]), parent: .null, environment: connectors.environment
        )
        guard let call = connector.call(values) else { return .null }
        return try await loader(for: connector).load(call, at: path)
    }

    private func makeLoader(_ connector: HTTPConnector) -> FieldLoader<ConnectorCall, FieldValue> {
        let (scheduler, concurrency, environment) = (scheduler, concurrency, connectors.environment)
        let secrets = connectors.scrubbed
        let makeTransport = transport
        // Which calls stale answers gave (noted by the sends), for the fields' `extensions.stale`.
        let staleness = KeyStaleness()
        // A transform's name is the loader's (and its spans'): the name of what it reads.
        let name = connector.transform?.name ?? connector.coordinate
        let memo: AnswerMemo<ConnectorCall, FieldValue>? = memos?.memo(Self.firstMemo + connector.index)
        let levels = dryRun ? KeyLevels<ConnectorCall>() : nil
        return FieldLoader(memo: memo, reading: reading, staleness: staleness, stale: stale, levels: levels) {
            let upstream = connector.upstream
            let call = UpstreamCall(service: upstream.service, transport: makeTransport(upstream), secrets: secrets)
            let send = ConnectorSend(
                connector: connector, call: call, environment: environment, staleness: staleness, memo: memo)
            do throws(DataLoaderError) {
                if connector.batch != nil {
                    // Chunked by `batch.max` after sorting (`batched`), not in arrival order: the
                    // same ids make the same requests in every request, which dedup then shares.
                    return try DataLoader(
                        name: name, scheduler: scheduler,
                        orderedBatch: { calls in
                            await UpstreamTracing.batch(name, keys: calls.count) {
                                await DryRunPlan.at(levels?.level(of: calls)) {
                                    await send.batched(calls)
                                }
                            }
                        })
                }
                return try DataLoader(
                    name: name, scheduler: scheduler,
                    batch: { calls in
                        await UpstreamTracing.batch(name, keys: calls.count) {
                            await fetchEach(calls, limit: concurrency) { call throws(UpstreamError) in
                                try await DryRunPlan.at(levels?.level(call)) { () throws(UpstreamError) in
                                    try await send.one(call)
                                }
                            }
                        }
                    })
            } catch {
                preconditionFailure("\(error)")  // the batch size was checked at start-up
            }
        }
    }
}

/// How one connector's calls are sent and answered.
private struct ConnectorSend: Sendable {
    let connector: HTTPConnector
    let call: UpstreamCall
    let environment: [String: String]
    /// Where a call answered from a stale response is noted, with its age.
    let staleness: KeyStaleness
    /// Where answers made of cached responses only are kept across requests; nil without a cache.
    let memo: AnswerMemo<ConnectorCall, FieldValue>?

    /// GETs `url`; the selected answer (or the transform's), nil for a 404 the connector
    /// declares null. With the
    /// upstream's `timeoutMs`, the field waits that long at most (`UPSTREAM_TIMEOUT`); the send
    /// goes on for whoever else waits on it, and its answer is kept as any other.
    private func get(_ url: String) async throws(UpstreamError) -> FieldValue? {
        let upstream = connector.upstream
        guard upstream.missingEnvironment.isEmpty else {
            throw UpstreamError(service: upstream.service, kind: .notConfigured)
        }
        guard let timeoutMs = upstream.timeoutMs, timeoutMs > 0 else { return try await answer(url) }
        let timedOut = UpstreamError(service: upstream.service, kind: .timeout, upstreamPath: call.path(of: url))
        let outcome = await withTaskGroup(of: Result<FieldValue?, UpstreamError>?.self) { group in
            group.addTask {
                do throws(UpstreamError) {
                    return .success(try await answer(url))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(timeoutMs))
                return Task.isCancelled ? nil : .failure(timedOut)
            }
            while let next = await group.next() {
                guard let next else { continue }
                group.cancelAll()
                return next
            }
            return .failure(timedOut)
        }
        return try outcome.get()
    }

    /// `get` without its timeout.
    private func answer(_ url: String) async throws(UpstreamError) -> FieldValue? {
        let upstream = connector.upstream
        let service = upstream.service
        let headers = connector.headers(environment: environment)
        if let transform = connector.transform {
            return try await call.fetch(
                url, headers: headers, fileID: transform.fileID, line: transform.line, decode: transform.decode)
        }
        let body = try await call.fetch(url, headers: headers) {
            status, headers, body throws(UpstreamError) in
            try ConnectorResponse.decode(service: service, status: status, headers: headers, body: body)
        }
        guard let body else {
            if connector.nullOn404 { return nil }
            throw UpstreamError(
                service: service, kind: .httpStatus(code: 404, bodySummary: "not found"), status: 404,
                upstreamPath: call.path(of: url))
        }
        do throws(UpstreamError) {
            return .json(try ConnectorResponse.selected(connector, in: body))
        } catch {
            var error = error
            error.upstreamPath = call.path(of: url)
            throw error
        }
    }

    func one(_ request: ConnectorCall) async throws(UpstreamError) -> FieldValue {
        let url = connector.url(request, environment: environment)
        let reads = BatchReads()
        let value = try await BatchReads.noting(reads) { () throws(UpstreamError) in try await get(url) } ?? .null
        if let memo, let (expires, bytes) = reads.keepableUntil {
            memo.keep([(request, value)], until: expires, bytes: bytes)
        }
        if let age = reads.staleAgeSeconds { staleness.note(request, ageSeconds: age) }
        return value
    }

    /// The batch's requests: per distinct rest of the URL, its parents' distinct values sorted
    /// and cut into chunks of `batch.max`, one request each, sent concurrently. Sorted, so that
    /// one set of ids always makes the same URLs: one cache entry, one in-flight send shared by
    /// every request asking for them. A parent whose value the answer does not list gets null
    /// (an empty list for a list field).
    func batched(_ calls: [ConnectorCall]) async -> [Result<FieldValue, any Error>] {
        guard let batch = connector.batch else { return calls.map { _ in .success(.null) } }
        var groups: [String: Set<String>] = [:]
        for call in calls { groups[call.relative, default: []].insert(call.batchValue) }
        var chunks: [ConnectorCall: [String]] = [:]
        for (relative, values) in groups {
            let sorted = values.sorted()
            for start in stride(from: 0, to: sorted.count, by: batch.max) {
                let chunk = Array(sorted[start..<min(start + batch.max, sorted.count)])
                chunks[ConnectorCall(relative: relative, batchValue: chunk[0])] = chunk
            }
        }
        let made = chunks
        let answers = await fetchEach(Array(made.keys), limit: made.count) { chunk throws(UpstreamError) in
            let url = connector.url(chunk, batchValues: made[chunk] ?? [], environment: environment)
            let reads = BatchReads()
            let answer = try await BatchReads.noting(reads) { () throws(UpstreamError) in try await get(url) }
            // One response answers the chunk's parents: a stale one answers them all.
            if let age = reads.staleAgeSeconds {
                for value in made[chunk] ?? [] {
                    staleness.note(ConnectorCall(relative: chunk.relative, batchValue: value), ageSeconds: age)
                }
            }
            // A batch has no transform (refused at start-up): its answer is JSON.
            let selected: JSONValue = if case .json(let json)? = answer { json } else { .array([]) }
            do throws(UpstreamError) {
                return ChunkAnswer(
                    byKey: try ConnectorResponse.entries(connector, batch, in: selected), keepable: reads.keepableUntil)
            } catch {
                var error = error
                error.upstreamPath = call.path(of: url)
                throw error
            }
        }
        // Which chunk holds each value.
        var chunkOf: [ConnectorCall: ConnectorCall] = [:]
        for (chunk, values) in chunks {
            for value in values { chunkOf[ConnectorCall(relative: chunk.relative, batchValue: value)] = chunk }
        }
        // A chunk made of cached responses only keeps its values' answers (null ones too).
        if let memo {
            for (chunk, values) in chunks {
                guard case .success(let answer)? = answers[chunk], let (expires, bytes) = answer.keepable else {
                    continue
                }
                let pairs = values.map { value in
                    (ConnectorCall(relative: chunk.relative, batchValue: value), self.value(of: value, in: answer))
                }
                memo.keep(pairs, until: expires, bytes: bytes)
            }
        }
        return calls.map { call in
            switch chunkOf[call].flatMap({ answers[$0] }) {
            case .success(let answer)?: return .success(value(of: call.batchValue, in: answer))
            case .failure(let error)?: return .failure(error)
            case nil: return .success(.null)
            }
        }
    }

    /// A batch response's entries by key, and until when it may be kept (nil: not all cached).
    struct ChunkAnswer: Sendable {
        let byKey: [String: [JSONValue]]
        let keepable: (expires: ContinuousClock.Instant, bytes: Int)?
    }

    /// The answer of the parent whose batch value is `value`: its entries for a list field, else
    /// the first (null when the answer left it out).
    private func value(of value: String, in answer: ChunkAnswer) -> FieldValue {
        let found = answer.byKey[value] ?? []
        return .json(connector.returnsList ? .array(found) : (found.first ?? .null))
    }
}
