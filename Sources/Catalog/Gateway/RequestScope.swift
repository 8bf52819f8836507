import DataLoader
import HTTPTypes
import UpstreamEconomy

/// What one GraphQL request (or one HTTP batch of operations) owns while it executes: its
/// upstream counts, the freshness of what it read, its batch scheduler, its spend budget, its
/// cancellation, and the resolver context holding its loaders over them.
struct RequestScope {
    let counters: UpstreamCounters
    let freshness: ResultFreshness
    let scheduler: BatchScheduler
    let cancellation: RequestCancellation
    let request: GatewayRequest
    /// A dry run's plan: its transports note every call there and send none; nil otherwise.
    let plan: DryRunPlan?

    /// Returns once the request's counts are whole: an execution that was cancelled stops
    /// waiting for its sends, which go on and still cost, so it waits for them here
    /// (`UpstreamCounters.settled`) before its counts are read for its log line and metrics.
    func settle() async {
        if cancellation.isCancelled { await counters.settled() }
    }
}

extension Gateway {
    /// A fresh scope whose transports may spend at most `budgetLimit` quota units in all, from
    /// the shares of the client the current task works for (`RequestClient.current`).
    func requestScope(budgetLimit: Int) -> RequestScope {
        let client = RequestClient.current
        let plan = RequestMode.dryRun ? DryRunPlan() : nil
        let counters = UpstreamCounters()
        let freshness = ResultFreshness()
        let scheduler = BatchScheduler()
        let cancellation = RequestCancellation()
        // One budget for the request, whichever of its first loaders makes the providers.
        let budget = RequestBudget(limit: budgetLimit)
        let loaders = RequestLoaders(
            providers: { [self] in
                providers(
                    counters: counters, freshness: freshness, budget: budget, cancellation: cancellation,
                    client: client,
                    plan: plan)
            },
            scheduler: scheduler, searchConcurrency: max(1, configuration.searchConcurrency), memos: memos,
            counters: counters, freshness: freshness, dryRun: plan != nil)
        let connectorLoaders =
            !connectors.hasCalls
            ? nil
            : ConnectorLoaders(
                connectors: connectors,
                transport: { [exchange, configuration] upstream in
                    RequestTransport(
                        service: upstream.service, exchange: exchange,
                        ttlSeconds: configuration.ttlSeconds(of: upstream),
                        counters: counters, freshness: freshness, budget: budget, cancellation: cancellation,
                        client: client, plan: plan)
                },
                scheduler: scheduler, concurrency: max(1, configuration.searchConcurrency), memos: memos,
                reading: MemoReading(now: .now, counters: counters, freshness: freshness), stale: loaders.stale,
                dryRun: plan != nil)
        return RequestScope(
            counters: counters, freshness: freshness, scheduler: scheduler, cancellation: cancellation,
            request: GatewayRequest(loaders: loaders, connectors: connectorLoaders), plan: plan)
    }
}
