import GraphQL
import HTTPTypes
import UpstreamEconomy

extension Gateway {
    /// The upstream plan of an operation, nothing sent (`RequestMode.dryRun`): it executes with
    /// transports that answer from the cache and the shared store and note every other call
    /// (`DryRunPlan`), then answers `data: null` and the plan in `extensions.plan`, beside the
    /// estimate, with the quota and the client's shares as they stand. Neither the result nor
    /// the cost estimate's refusal applies: a plan costs nothing.
    func dryRun(prepared: PreparedDocument, operationName: String?, variables: JSONObject) async -> GatewayResponse {
        let estimate = estimatedCost(prepared: prepared, operationName: operationName, variables: variables)
        let scope = requestScope(budgetLimit: 0)
        _ = await scope.cancellation.whileRunning {
            await GraphQL.execute(
                schema: schema, document: prepared.document, source: prepared.source, variableValues: variables,
                operationName: operationName, resolvers: resolvers, context: scope.request, activity: scope.scheduler,
                planCache: prepared.plans, maxResponseBytes: configuration.maxResponseBytes)
        }
        let client = RequestClient.current
        let shares = ledger.limits.keys.compactMap { service in
            ledger.shareUsage(service, client: client).map { (service, used: $0.used, limit: $0.limit) }
        }
        let quota = ledger.usage()
        var response = GatewayResponse(
            result: ExecutionResult(data: nil), estimatedCost: estimate.cost, counts: UpstreamCounters.Counts(),
            quota: quota, refused: false)
        let plan = scope.plan ?? DryRunPlan()
        response.plan = plan.json(quota: quota, shares: shares, kept: scope.counters.snapshot.cacheHits)
        return response
    }
}
