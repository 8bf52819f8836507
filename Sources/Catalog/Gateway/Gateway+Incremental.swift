import DataLoader
import GraphQL
import HTTPTypes
import UpstreamEconomy

/// One payload of an incremental gateway answer, with what the request had cost when it was
/// produced.
public struct GatewayIncrementalPayload: Sendable {
    /// The payload in the incremental delivery RFC's format (`.complete` when nothing was
    /// deferred or streamed, or the cost limit refused the query).
    public let payload: IncrementalPayload
    /// Upstream requests, cache hits, deduplicated reads and the actual cost so far (all of the
    /// request's on the last payload).
    public let counts: UpstreamCounters.Counts
    /// The response `extensions` (`cost`, `upstream`, `quota`, as `GatewayResponse.extensions`)
    /// on the last payload; empty on the others.
    public let extensions: JSONObject
    /// True on the last payload (`.complete`, or `hasNext == false`).
    public var isLast: Bool { Self.isLast(payload) }

    static func isLast(_ payload: IncrementalPayload) -> Bool {
        switch payload {
        case .complete: true
        case .initial: false
        case .subsequent(let subsequent): !subsequent.hasNext
        }
    }

    /// The payload as UTF-8 JSON text, with `extensions` when there are any.
    public func serialized() -> [UInt8] { payload.serialized(extensions: extensions) }
}

extension Gateway {
    /// Runs one validated operation with incremental delivery (`@defer`, `@stream`; the
    /// incremental delivery RFC, graphql-spec branch `incremental-integration`, §6–7): the same
    /// cost check, budget and quota as `execute`, and one set of per-request loaders for the
    /// initial payload and every deferred fragment and streamed item, so deferred work batches
    /// with everything else: a query makes the same upstream requests with `@defer` as without.
    ///
    /// Results are neither read from nor kept in the result cache (a kept result has no
    /// payload boundaries).
    /// `configuration.maxResponseBytes` bounds the data of all payloads together (see
    /// `GraphQL.executeIncrementally(maxResponseBytes:)`).
    ///
    /// - Parameter deliver: called with each payload in order (`.complete` alone, or `.initial`
    ///   then `.subsequent` until `hasNext == false`); return false when the client left: the
    ///   deferred work and its upstream requests still running are cancelled. Cancelling the
    ///   calling task cancels them too.
    /// - Returns: what the whole request cost, read when its execution has stopped: after a
    ///   client left, that includes the requests on the wire when it did, which no payload
    ///   carries (a stopped stream's log line and metrics count them).
    @discardableResult
    public func executeIncrementally(
        prepared: PreparedDocument, operationName: String?, variables: JSONObject,
        deliver: (GatewayIncrementalPayload) async -> Bool
    ) async -> UpstreamCounters.Counts {
        await ledger.loadStoredCounts()
        // A plan has no payloads to defer.
        if RequestMode.dryRun {
            let plan = await dryRun(prepared: prepared, operationName: operationName, variables: variables)
            _ = await deliver(
                GatewayIncrementalPayload(
                    payload: .complete(plan.result), counts: plan.counts, extensions: plan.extensions))
            return plan.counts
        }
        let estimate = estimatedCost(prepared: prepared, operationName: operationName, variables: variables)
        if let refusal = costRefusal(estimate) {
            _ = await deliver(
                GatewayIncrementalPayload(
                    payload: .complete(refusal.result), counts: refusal.counts, extensions: refusal.extensions))
            return refusal.counts
        }
        let scope = requestScope(budgetLimit: configuration.maxQueryCost)
        let (counters, scheduler, cancellation, request) = (
            scope.counters, scope.scheduler, scope.cancellation, scope.request
        )
        let schema = self.schema
        let resolvers = self.resolvers
        let maxResponseBytes = configuration.maxResponseBytes
        await cancellation.whileRunning {
            await GraphQL.executeIncrementally(
                schema: schema, document: prepared.document, source: prepared.source, variableValues: variables,
                operationName: operationName, resolvers: resolvers, context: request, activity: scheduler,
                maxResponseBytes: maxResponseBytes
            ) { payload in
                let counts = counters.snapshot
                var extensions = JSONObject()
                if GatewayIncrementalPayload.isLast(payload) {
                    var last = GatewayResponse(
                        result: ExecutionResult(data: nil), estimatedCost: estimate.cost, counts: counts,
                        quota: ledger.usage(), refused: false)
                    last.stale = request.loaders.stale.all
                    extensions = last.extensions
                }
                let wanted = await deliver(
                    GatewayIncrementalPayload(payload: payload, counts: counts, extensions: extensions))
                // The client left: the request's transports send nothing more, even for batches
                // a loader has already dispatched.
                if !wanted { cancellation.cancel() }
                return wanted
            }
        }
        await scope.settle()
        return counters.snapshot
    }
}
