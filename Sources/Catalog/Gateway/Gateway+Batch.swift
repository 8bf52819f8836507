import DataLoader
import GraphQL
import HTTPTypes
import Synchronization
import UpstreamEconomy

/// One operation of a batch: a validated document, the operation to run, its raw variables.
public struct GatewayOperation: Sendable {
    public var prepared: PreparedDocument
    public var operationName: String?
    public var variables: JSONObject

    public init(prepared: PreparedDocument, operationName: String?, variables: JSONObject) {
        self.prepared = prepared
        self.operationName = operationName
        self.variables = variables
    }
}

extension Gateway {
    /// Runs the operations of one batch (GraphQL over HTTP's request batching) as one request:
    /// each is answered on its own (a kept result, a cost refusal, its own errors), and those
    /// that execute share one set of per-request DataLoaders, so their upstream reads batch and
    /// deduplicate together: two operations reading albums of different artists make one
    /// iTunes lookup between them, as one query selecting both would.
    ///
    /// - Returns: one response per operation, in order. The executed ones carry the batch's
    ///   shared upstream counts (`countsSharedWithBatch`); each has its own cost estimate, is
    ///   refused on its own over `configuration.maxQueryCost`, and is kept for repeats on its
    ///   own when every read of the batch was cacheable. The operations that run share one hard
    ///   budget, `maxQueryCost` for each of them (their reads are shared, so the spend cannot be
    ///   told apart): the batch never sends more than the sum of what they may spend.
    ///
    /// `finished` hears each operation's response as soon as it has one (its index and the
    /// response; the counts are the batch's so far), so that a caller with a deadline can
    /// answer the operations that finished.
    public func execute(
        batch operations: [GatewayOperation], finished: (@Sendable (Int, GatewayResponse) -> Void)? = nil
    ) async -> [GatewayResponse] {
        await ledger.loadStoredCounts()
        if RequestMode.dryRun {
            var plans: [GatewayResponse] = []
            for operation in operations {
                plans.append(
                    await dryRun(
                        prepared: operation.prepared, operationName: operation.operationName,
                        variables: operation.variables))
            }
            return plans
        }
        var responses = [GatewayResponse?](repeating: nil, count: operations.count)
        var runs: [(index: Int, estimated: Int, resultKey: ExactStringKey?)] = []
        for (index, operation) in operations.enumerated() {
            let key = resultKey(
                prepared: operation.prepared, operationName: operation.operationName, variables: operation.variables)
            if let key, let hit = cachedResponse(resultKey: key) {
                responses[index] = hit
                finished?(index, hit)
                continue
            }
            let estimate = estimatedCost(
                prepared: operation.prepared, operationName: operation.operationName, variables: operation.variables)
            if let refusal = costRefusal(estimate) {
                responses[index] = refusal
                finished?(index, refusal)
                continue
            }
            runs.append((index, estimate.cost, key))
        }
        if !runs.isEmpty {
            let (limit, overflow) = configuration.maxQueryCost.multipliedReportingOverflow(by: runs.count)
            let scope = requestScope(budgetLimit: overflow ? 0 : limit)
            let (counters, freshness, scheduler, request) = (
                scope.counters, scope.freshness, scope.scheduler, scope.request
            )
            // One runnable unit held for each operation until its execution starts counting its
            // own: otherwise the first to wait on a loader would dispatch the batch before the
            // others had asked for their keys.
            for _ in runs { scheduler.enter() }
            let schema = self.schema
            let resolvers = self.resolvers
            let maxResponseBytes = configuration.maxResponseBytes
            let results = await scope.cancellation.whileRunning {
                await withTaskGroup(of: (Int, ExecutionResult).self) { group in
                    for run in runs {
                        let operation = operations[run.index]
                        group.addTask {
                            let activity = BatchMemberActivity(scheduler: scheduler)
                            let result = await GraphQL.execute(
                                schema: schema, document: operation.prepared.document,
                                source: operation.prepared.source,
                                variableValues: operation.variables, operationName: operation.operationName,
                                resolvers: resolvers, context: request, activity: activity,
                                planCache: operation.prepared.plans, maxResponseBytes: maxResponseBytes)
                            activity.finish()
                            return (run.index, result)
                        }
                    }
                    var results: [Int: ExecutionResult] = [:]
                    for await (index, result) in group {
                        results[index] = result
                        if let finished, let run = runs.first(where: { $0.index == index }) {
                            var response = GatewayResponse(
                                result: result, estimatedCost: run.estimated, counts: counters.snapshot,
                                quota: ledger.usage(), refused: false)
                            response.countsSharedWithBatch = true
                            finished(index, response)
                        }
                    }
                    return results
                }
            }
            await scope.settle()
            let counts = counters.snapshot
            let reusable = freshness.reusableUntil
            let stale = request.loaders.stale.all
            for run in runs {
                guard let result = results[run.index] else { continue }
                if let cache, let key = run.resultKey, result.errors.isEmpty, !result.isRequestError,
                    !Task.isCancelled, let reusable
                {
                    cache.storeResult(
                        CachedResult(result: result, estimatedCost: run.estimated, upstreamReads: reusable.reads),
                        for: key, expires: reusable.expires)
                }
                var response = GatewayResponse(
                    result: result, estimatedCost: run.estimated, counts: counts, quota: ledger.usage(), refused: false)
                if result.errors.isEmpty, !result.isRequestError { response.freshUntil = reusable?.expires }
                response.countsSharedWithBatch = true
                // Like the counts, the batch's stale values cannot be told to one operation.
                response.stale = stale
                responses[run.index] = response
            }
        }
        return responses.map {
            $0
                ?? GatewayResponse(
                    result: ExecutionResult(data: nil, errors: [GraphQLError("The operation did not run.")]),
                    estimatedCost: 0, counts: UpstreamCounters.Counts(), refused: false)
        }
    }
}

/// The executor activity of one operation of a batch: the batch's scheduler, except that the
/// operation's first `enter()` (its start) is the unit the batch entered for it beforehand.
/// `finish()` gives that unit back when the operation never started (a request error).
private final class BatchMemberActivity: ExecutionActivity {
    let scheduler: BatchScheduler
    /// The first `enter()` came (or `finish()` did).
    private let started = Atomic<Bool>(false)

    init(scheduler: BatchScheduler) {
        self.scheduler = scheduler
    }

    func enter() {
        if started.exchange(true, ordering: .acquiringAndReleasing) { scheduler.enter() }
    }

    func leave() {
        scheduler.leave()
    }

    func finish() {
        if !started.exchange(true, ordering: .acquiringAndReleasing) { scheduler.leave() }
    }
}
