import DataLoader

/// What one GraphQL request (or one HTTP batch of operations) owns while it executes: its
/// upstream counts, the freshness of what it read, its batch scheduler, its spend budget, its
/// cancellation, and the resolver context holding its loaders over them.
struct RequestScope {
    let counters: UpstreamCounters
    let freshness: ResultFreshness
    let scheduler: BatchScheduler
    let cancellation: RequestCancellation
    let request: GatewayRequest
}

extension Gateway {
    /// A fresh scope whose transports may spend at most `budgetLimit` quota units in all.
    func requestScope(budgetLimit: Int) -> RequestScope {
        let counters = UpstreamCounters()
        let freshness = ResultFreshness()
        let scheduler = BatchScheduler()
        let cancellation = RequestCancellation()
        // One budget for the request, whichever of its first loaders makes the providers.
        let budget = RequestBudget(limit: budgetLimit)
        let loaders = RequestLoaders(
            providers: { [self] in
                providers(counters: counters, freshness: freshness, budget: budget, cancellation: cancellation)
            },
            scheduler: scheduler, searchConcurrency: max(1, configuration.searchConcurrency))
        return RequestScope(
            counters: counters, freshness: freshness, scheduler: scheduler, cancellation: cancellation,
            request: GatewayRequest(loaders: loaders))
    }
}
