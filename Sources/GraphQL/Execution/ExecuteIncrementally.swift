import Synchronization

/// Executes an operation with incremental delivery: `@defer` and `@stream` (the incremental
/// delivery RFC, graphql-spec branch `incremental-integration`, §6 "Execution" and §7
/// "Response"; graphql-js 17 `experimentalExecuteIncrementally`).
///
/// The initial payload holds everything not deferred or streamed; it is built exactly as
/// `execute` builds a response (same plans, resolvers, null propagation). Then each deferred
/// fragment's execution groups and each stream's items run concurrently, on the same request
/// executor and `activity` as the initial payload (so DataLoaders batch across them), and each
/// completion is delivered as soon as the graph of pending notices allows: what completes
/// together goes in one payload. A field error inside a deferred fragment or a streamed item
/// stays there: it nulls fields of that payload only, or fails that fragment (or ends that
/// stream) with a completion notice carrying the errors.
///
/// - Parameters: as `execute`, plus
///   - maxResponseBytes: the most UTF-8 bytes of `data` the initial payload and every later one
///     may take together (`ResponseSizeLimit`, checked while each is written); 0 for no limit.
///     Over it in the initial payload: `.complete` with `data: null` and one
///     `RESPONSE_TOO_LARGE` error, as `execute` answers. Over it later: no further resolver
///     runs, nothing more of the data is delivered, and a last payload (`hasNext: false`)
///     completes every notice still pending with that error.
///   - deliver: called with each payload in order, from the calling task: `.complete` alone
///     when nothing is deferred or streamed (or for a request error: errors only, no `data`),
///     else `.initial` then `.subsequent` payloads until one has `hasNext == false`. Return
///     false to stop (the client left): the deferred work still running is cancelled.
/// Cancelling the calling task cancels every deferred execution group and stream too.
public func executeIncrementally(
    schema: Schema, document: Document, source: Source, rootValue: FieldValue = .json(.object(JSONObject())),
    variableValues: JSONObject = JSONObject(), operationName: String? = nil,
    resolvers: any ExecutionResolvers = PropertyResolvers(), context: (any Sendable)? = nil,
    activity: (any ExecutionActivity)? = nil, maxResponseBytes: Int = 0, deliver: (IncrementalPayload) async -> Bool
) async {
    let prepared = prepareExecution(
        schema: schema, document: document, source: source, variableValues: variableValues,
        operationName: operationName, resolvers: resolvers, context: context, allowsAsync: true, activity: activity,
        incremental: true, maxResponseBytes: maxResponseBytes)
    let execution: ExecutionContext
    switch prepared {
    case .success(let context): execution = context
    case .failure(let failure):
        _ = await deliver(.complete(ExecutionResult(data: nil, errors: failure.errors)))
        return
    }
    activity?.enter()
    await withTaskExecutorPreference(execution.requestExecutor) {
        let initial: FinishedValue
        switch execution.startOperation(rootValue: rootValue, planCache: nil) {
        case .done(let bytes):
            initial = FinishedValue(bytes)
        case .pending(let out):
            do throws(FieldFailure) {
                initial = try await execution.finish(out)
            } catch {
                execution.record(error.error)
                initial = FinishedValue(nullJSON())
            }
        case .serial(let plan):
            initial = await execution.executeFieldsSerially(plan, rootValue: rootValue)
        }
        // From here this task only waits for deferred work and hands payloads over.
        activity?.leave()
        await execution.publish(initial, deliver: deliver)
    }
}

extension ExecutionContext {
    /// Delivers the initial payload, then runs the deferred work it announces and delivers its
    /// completions until none is pending (graphql-js 17 `IncrementalPublisher`).
    fileprivate func publish(_ initial: FinishedValue, deliver: (IncrementalPayload) async -> Bool) async {
        // Over the size limit already: the ordinary `data: null` answer, nothing deferred starts.
        if let responseLimit, responseLimit.isTripped {
            _ = await deliver(.complete(result(data: initial.bytes)))
            return
        }
        let graph = IncrementalGraph()
        var parts = PayloadParts()
        graph.addRecords(initial.records, into: &parts)
        let initialResult = ExecutionResult(dataBuffer: initial.bytes, errors: collectedErrors)
        guard !parts.pending.isEmpty else {
            _ = await deliver(.complete(initialResult))
            return
        }
        // Announced and not completed, for the last payload of a stream the size limit stops.
        var open = parts.pending
        let completions = CompletionQueue()
        await withDiscardingTaskGroup { tasks in
            func start(_ work: [IncrementalWork]) {
                for item in work {
                    activity?.enter()
                    tasks.addTask {
                        defer { self.activity?.leave() }
                        switch item {
                        case .executionGroup(let group): completions.push([await self.executeExecutionGroup(group)])
                        case .stream(let stream): await self.executeStream(stream, into: completions)
                        }
                    }
                }
            }
            start(parts.work)
            guard await deliver(.initial(InitialIncrementalResult(result: initialResult, pending: parts.pending)))
            else {
                tasks.cancelAll()
                return
            }
            while graph.hasNext {
                let batch = await completions.nextBatch()
                if Task.isCancelled { break }
                if let responseLimit, responseLimit.isTripped {
                    _ = await deliver(.subsequent(tooLargePayload(responseLimit, open: open)))
                    break
                }
                var parts = PayloadParts()
                for completion in batch { graph.handle(completion, into: &parts) }
                open += parts.pending
                let done = Set(parts.completed.map(\.id))
                open.removeAll { done.contains($0.id) }
                start(parts.work)
                guard parts.hasContent else { continue }
                let payload = SubsequentIncrementalResult(
                    hasNext: graph.hasNext, pending: parts.pending, incremental: parts.incremental,
                    completed: parts.completed)
                guard await deliver(.subsequent(payload)) else { break }
            }
            // Groups of failed fragments, streams cut short, or everything after a stop.
            tasks.cancelAll()
        }
    }

    /// The last payload of a stream stopped by the size limit: every notice still `open`
    /// completes with the limit's error, nothing of the data that crossed it is delivered.
    private func tooLargePayload(_ limit: ResponseSizeLimit, open: [PendingNotice]) -> SubsequentIncrementalResult {
        let error = limit.error(locations: locations(of: [operation.loc]), incremental: true)
        return SubsequentIncrementalResult(
            hasNext: false, pending: [], incremental: [],
            completed: open.map {
                CompletedNotice(id: $0.id, label: $0.label, path: $0.path, errors: [error], nextIndex: nil)
            })
    }

    /// Executes one deferred execution group: its fields on its object, with errors of its own
    /// (graphql-js 17 `executeExecutionGroup`). A null reaching the object fails the group.
    fileprivate func executeExecutionGroup(_ group: PendingExecutionGroup) async -> IncrementalCompletion {
        let scope = ExecutionContext(errorScopeOf: self)
        guard !Task.isCancelled else {
            return .executionGroup(group, .failure(errors: [GraphQLError("Request cancelled.", path: group.path)]))
        }
        let out = ResponseWriter(
            capacity: 1024, tracksFrames: true, incremental: IncrementalWalk(deferMap: group.deferMap))
        do throws(FieldFailure) {
            try scope.executeSelectionSet(
                group.plan, source: group.source, path: ResponsePath(prefix: group.path), out: out)
            // Deferred data counts against the response's size limit like the initial payload's.
            responseLimit?.commit(out.buffer.count)
            responseLimit?.tripIfOver(path: group.path)
            let finished = try await scope.finish(out)
            return .executionGroup(
                group, .success(data: finished.bytes, errors: scope.collectedErrors, records: finished.records))
        } catch {
            return .executionGroup(group, .failure(errors: scope.collectedErrors + [error.error]))
        }
    }

    /// Completes a stream's items and reports them in list order: each item is walked at once
    /// (items needing no waiting are done then), the rest finish concurrently; every time the
    /// next items in order are done they go out together. A non-null item that fails ends the
    /// stream with its error; the items after it are not delivered.
    fileprivate func executeStream(_ stream: StreamRecord, into completions: CompletionQueue) async {
        let count = stream.items.count
        var results = [StreamItemResult?](repeating: nil, count: count)
        var walks: [(index: Int, walk: PendingItemWalk)] = []
        for index in 0..<count {
            switch walkStreamItem(stream, index: index) {
            case .done(let result): results[index] = result
            case .waiting(let walk): walks.append((index, walk))
            }
        }
        var next = 0
        if report(stream, &results, &next, into: completions) || walks.isEmpty { return }
        await withTaskGroup(of: (Int, StreamItemResult).self) { group in
            for (index, walk) in walks {
                activity?.enter()
                group.addTask {
                    defer { self.activity?.leave() }
                    return (index, await walk.scope.finishStreamItem(walk.out))
                }
            }
            // Waiting on the items: not runnable until one reports back.
            activity?.leave()
            for await (index, result) in group {
                results[index] = result
                if report(stream, &results, &next, into: completions) {
                    group.cancelAll()
                    break
                }
            }
            activity?.enter()
        }
    }

    /// Reports the items done from `next` on; true once the stream is over (reported too).
    private func report(
        _ stream: StreamRecord, _ results: inout [StreamItemResult?], _ next: inout Int,
        into completions: CompletionQueue
    ) -> Bool {
        let firstIndex = stream.startIndex + next
        var items: [JSONByteBuffer] = []
        var errors: [GraphQLError] = []
        var records: [IncrementalDataRecord] = []
        var end: [GraphQLError]?? = nil
        while next < results.count, let result = results[next] {
            switch result {
            case .item(let bytes, let itemErrors, let itemRecords):
                items.append(bytes)
                errors += itemErrors
                records += itemRecords
                next += 1
            case .failure(let itemErrors):
                end = .some(itemErrors)
            }
            if end != nil { break }
        }
        if end == nil && next == results.count { end = .some(nil) }
        var batch: [IncrementalCompletion] = []
        if !items.isEmpty {
            batch.append(.streamItems(stream, firstIndex: firstIndex, items: items, errors: errors, records: records))
        }
        if let end { batch.append(.streamEnd(stream, nextIndex: stream.startIndex + next, errors: end)) }
        if !batch.isEmpty { completions.push(batch) }
        return end != nil
    }

    /// The synchronous walk of one streamed item, in an error scope of its own; a nullable item
    /// that fails is null with its error (§6.4.4), a non-null one fails the stream.
    private func walkStreamItem(_ stream: StreamRecord, index: Int) -> StreamItemWalk {
        let scope = ExecutionContext(errorScopeOf: self)
        let out = ResponseWriter(capacity: 256, tracksFrames: true, incremental: IncrementalWalk(deferMap: .empty))
        do throws(FieldFailure) {
            try scope.completeItem(
                stream.items[index], stream.itemShape, at: stream.startIndex + index, field: stream.itemPlan,
                path: ResponsePath(prefix: stream.path), out: out)
        } catch {
            return .done(.failure(errors: scope.collectedErrors + [error.error]))
        }
        responseLimit?.commit(out.buffer.count)
        responseLimit?.tripIfOver(path: stream.path + [.index(stream.startIndex + index)])
        if out.holes.isEmpty {
            return .done(
                .item(out.buffer, errors: scope.collectedErrors, records: out.incremental?.records.map(\.record) ?? []))
        }
        return .waiting(PendingItemWalk(scope: scope, out: out))
    }

    /// `finish` for a streamed item's walk, in its error scope (self).
    fileprivate func finishStreamItem(_ out: ResponseWriter) async -> StreamItemResult {
        do throws(FieldFailure) {
            let finished = try await finish(out)
            return .item(finished.bytes, errors: collectedErrors, records: finished.records)
        } catch {
            return .failure(errors: collectedErrors + [error.error])
        }
    }
}

/// One streamed item, completed.
private enum StreamItemResult: Sendable {
    case item(JSONByteBuffer, errors: [GraphQLError], records: [IncrementalDataRecord])
    case failure(errors: [GraphQLError])
}

private enum StreamItemWalk {
    case done(StreamItemResult)
    case waiting(PendingItemWalk)
}

/// A streamed item's walk with holes left, handed to the task that finishes it.
/// `@unchecked Sendable` as `JSONByteBuffer` is: ownership moves with it, the walking task
/// never touches the writer again once it is handed over.
private final class PendingItemWalk: @unchecked Sendable {
    let scope: ExecutionContext
    let out: ResponseWriter

    init(scope: ExecutionContext, out: ResponseWriter) {
        self.scope = scope
        self.out = out
    }
}

/// Where deferred work reports back to the publishing task: a batch is everything that
/// finished since the publisher last looked.
final class CompletionQueue: Sendable {
    private struct State {
        var ready: [IncrementalCompletion] = []
        var waiter: CheckedContinuation<[IncrementalCompletion], Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    func push(_ completions: [IncrementalCompletion]) {
        let handoff = state.withLock {
            state -> (CheckedContinuation<[IncrementalCompletion], Never>, [IncrementalCompletion])? in
            state.ready += completions
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, Self.take(&state))
        }
        if let (waiter, batch) = handoff { waiter.resume(returning: batch) }
    }

    /// Everything reported so far, waiting for the first report if there is none; empty once
    /// the calling task is cancelled.
    func nextBatch() async -> [IncrementalCompletion] {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> [IncrementalCompletion]? in
                    if !state.ready.isEmpty || state.cancelled { return Self.take(&state) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<[IncrementalCompletion], Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: [])
        }
    }

    private static func take(_ state: inout State) -> [IncrementalCompletion] {
        defer { state.ready = [] }
        return state.ready
    }
}
