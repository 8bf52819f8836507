import HTTPTypes

/// The transport seam of one provider within one GraphQL request. A read is answered, in this
/// order, by the shared `UpstreamCache`; by a send of the same request already in flight (any
/// request's: single-flight, keyed by the cache key); or by sending it, which this request
/// pays for try by try from its `RequestBudget` and the provider's daily quota, and stores when
/// it is a 2xx. Counts each read in the request's `UpstreamCounters` and notes in its
/// `ResultFreshness` how long the request's result could be reused.
package struct RequestTransport: UpstreamTransport {
    package let service: UpstreamService
    package let exchange: UpstreamExchange
    /// Seconds a response of this provider stays cached when it sends no `max-age`.
    package let ttlSeconds: Int
    package let counters: UpstreamCounters
    package let freshness: ResultFreshness
    package let budget: RequestBudget
    /// The request is over: nothing more is sent for it (a flight it joins or started goes on).
    package let cancellation: RequestCancellation
    /// Who the request is for: its tries are paid from this client's shares of each day.
    package let client: RequestClient?
    /// Set for a dry run: every call is noted there, and none is sent.
    package var plan: DryRunPlan? = nil

    package init(
        service: UpstreamService, exchange: UpstreamExchange, ttlSeconds: Int, counters: UpstreamCounters,
        freshness: ResultFreshness, budget: RequestBudget, cancellation: RequestCancellation, client: RequestClient?,
        plan: DryRunPlan? = nil
    ) {
        self.service = service
        self.exchange = exchange
        self.ttlSeconds = ttlSeconds
        self.counters = counters
        self.freshness = freshness
        self.budget = budget
        self.cancellation = cancellation
        self.client = client
        self.plan = plan
    }
    /// What a call to `url` costs in quota units: its upstream's declared price.
    private func price(_ url: String) -> Int { exchange.traits[service].units(ofURL: url) }

    package func discard(url: String, headers: [(name: String, value: String)]) {
        let key = Self.key(url: url, headers: headers)
        exchange.cache?.remove(key)
        if let shared = exchange.shared {
            let sharedKey = shared.key(service, url: url, headers: headers)
            Task { await shared.remove(sharedKey) }
        }
    }

    package static func key(url: String, headers: [(name: String, value: String)]) -> String {
        UpstreamCache.cacheKey(url: url, headers: headers, secretParameters: HTTPClientTransport.secretQueryParameters)
    }

    /// The response to a GET of `url`, or, when the upstream cannot give one (the send failed
    /// or was answered 5xx or 429; the budget, the client's share or the day's quota refused it)
    /// and the cache still holds an answer past its freshness (`UpstreamCache.lookUpStale`),
    /// that answer, noted as stale for the request.
    /// - Throws: `UpstreamError` `.budgetExceeded`, `.clientQuotaSpent` or `.dailyQuotaSpent`
    ///   for a call that was not sent; the transport's error for a send that failed (its own or
    ///   the one it shared); `CancellationError` when this request's task is cancelled while
    ///   waiting, or was cancelled before (nothing is sent for a request whose client is gone).
    package func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        let key = Self.key(url: url, headers: headers)
        if let plan { return try await planned(plan, key: key, url: url, headers: headers) }
        return try await UpstreamTracing.read(service, url: url, pathWords: exchange.traits[service].pathWords) {
            try await read(key: key, url: url, headers: headers)
        }
    }

    /// `get`, once the request is known to be sent or read (not planned).
    private func read(key: String, url: String, headers: [(name: String, value: String)]) async throws
        -> UpstreamResponse
    {
        let response: UpstreamResponse
        do {
            response = try await fresh(key: key, url: url, headers: headers)
        } catch let error where !(error is CancellationError) {
            if let stale = stale(key) { return stale }
            throw error
        }
        let failed =
            response.status >= 500 || response.status == 429
            || exchange.saysDailyQuotaIsSpent(service, response)
        if failed, let stale = stale(key) { return stale }
        return response
    }

    /// A dry run's call: answered from the cache or the shared store when they hold it (so the
    /// levels below it are planned too), else noted as in flight or to be sent, and not sent.
    /// - Throws: `UpstreamError` `.notSent` for a call the dry run would send or wait for.
    private func planned(_ plan: DryRunPlan, key: String, url: String, headers: [(name: String, value: String)])
        async throws -> UpstreamResponse
    {
        if let hit = exchange.cache?.lookUpWithExpiry(key) {
            plan.note(service, url: url, .cache, units: 0)
            return hit.response
        }
        if exchange.inFlight.isInFlight(key) {
            plan.note(service, url: url, .inFlight, units: 0)
            throw UpstreamError(service: service, kind: .notSent)
        }
        if let shared = exchange.shared, let hit = await shared.lookUp(shared.key(service, url: url, headers: headers))
        {
            plan.note(service, url: url, .store, units: 0)
            return hit.response
        }
        plan.note(service, url: url, .send, units: price(url))
        throw UpstreamError(service: service, kind: .notSent)
    }

    /// The cache's copy of `key` past its freshness, noted as stale; nil when there is none.
    private func stale(_ key: String) -> UpstreamResponse? {
        guard let (response, age) = exchange.cache?.lookUpStale(key) else { return nil }
        // Read from the cache like a hit, and listed in `extensions.stale` besides.
        noteCacheHit()
        UpstreamTracing.note("musicgraph.upstream.stale")
        freshness.noteStale(ageSeconds: age)
        BatchReads.current?.noteStale(ageSeconds: age)
        return response
    }

    /// The response to a GET of `url`: from the cache, a send in flight, or a send of its own.
    private func fresh(key: String, url: String, headers: [(name: String, value: String)]) async throws
        -> UpstreamResponse
    {
        while true {
            // Its loaders' batches run on in their own tasks after the request is cancelled.
            if cancellation.isCancelled { throw CancellationError() }
            if let hit = lookUp(key) { return hit }
            if let flight = exchange.inFlight.joinOrClaim(key) {
                let outcome = try await flight.wait(leavingOn: cancellation)
                if case .abandoned = outcome { continue }  // its claimant could not pay; try on our account
                noteDeduplicated()
                return try deliver(outcome)
            }
            return try await sendClaimed(key: key, url: url, headers: headers)
        }
    }

    /// A read answered by the cache (or the shared store), counted and traced so.
    private func noteCacheHit() {
        counters.recordCacheHit()
        UpstreamTracing.note("musicgraph.upstream.cache_hit")
    }

    /// A read answered by another request's send, counted and traced so.
    private func noteDeduplicated() {
        counters.recordDeduplicated()
        UpstreamTracing.note("musicgraph.upstream.deduplicated")
    }

    private func lookUp(_ key: String) -> UpstreamResponse? {
        guard let hit = exchange.cache?.lookUpWithExpiry(key) else { return nil }
        noteCacheHit()
        noteCached(hit.response, until: hit.expires)
        return hit.response
    }

    /// A read answered by, or stored in, the cache until `expires`: for the request's result and
    /// for the fetch it is part of (`BatchReads`, whether its answers may be kept).
    private func noteCached(_ response: UpstreamResponse, until expires: ContinuousClock.Instant) {
        freshness.noteCached(until: expires)
        BatchReads.current?.noteCached(until: expires, bytes: response.body.count)
    }

    private func noteUncached() {
        freshness.noteUncached()
        BatchReads.current?.noteUncached()
    }

    /// Sends the request whose key this caller claimed, and waits for it like any other waiter.
    private func sendClaimed(key: String, url: String, headers: [(name: String, value: String)]) async throws
        -> UpstreamResponse
    {
        let inFlight = exchange.inFlight
        // The answer may have been stored between this caller's miss and its claim.
        if let hit = exchange.cache?.lookUpWithExpiry(key) {
            inFlight.finish(key, .response(hit.response, expires: hit.expires))
            noteCacheHit()
            noteCached(hit.response, until: hit.expires)
            return hit.response
        }
        // Another process (or this one before a restart) may have fetched it: the shared store
        // is asked once per key in flight, by its claimant.
        var holdsSharedClaim = false
        // Scoped by the upstream that answers it: another base URL's answers are never this one's.
        let sharedKey = exchange.shared?.key(service, url: url, headers: headers) ?? key
        if let shared = exchange.shared {
            if let hit = await sharedHit(key, sharedKey, shared) {
                noteCacheHit()
                return hit
            }
            // Before the claim: a holder that fails right after it refused this one is still seen.
            let waitingSinceMs = shared.clock.nowMs()
            holdsSharedClaim = await shared.claim(sharedKey)
            while !holdsSharedClaim {
                // Another process is sending it: its answer is in the store before it lets go.
                // Its claim may outlast this process's wait (its `--timeout-ms` is longer): wait
                // again while it holds it; a holder that crashed lets go when its claim's TTL ends.
                await shared.awaitRelease(sharedKey)
                if let hit = await sharedHit(key, sharedKey, shared) {
                    noteDeduplicated()
                    return hit
                }
                // Its send failed while this one waited: that failure is this one's too, as for a
                // waiter in its own process (not sent again with all its tries by every waiter).
                if let failure = await shared.failure(sharedKey, sinceMs: waitingSinceMs) {
                    let outcome: InFlightRequest.Outcome =
                        switch failure {
                        case .response(let response): .response(response, expires: nil)
                        case .transport(let failure): .failure(failure)
                        }
                    inFlight.finish(key, outcome)
                    noteDeduplicated()
                    return try deliver(outcome)
                }
                if cancellation.isCancelled {
                    inFlight.finish(key, .abandoned)
                    throw CancellationError()
                }
                // Its send failed, was not cacheable, or its claim ran out: send it here.
                holdsSharedClaim = await shared.claim(sharedKey)
            }
            // Whoever held the claim may have stored the answer and let go between this
            // caller's miss and its claim: look once more before paying for a send.
            if holdsSharedClaim, let hit = await sharedHit(key, sharedKey, shared) {
                await shared.release(sharedKey)
                noteDeduplicated()
                return hit
            }
        }
        let cost = price(url)
        do {
            if cancellation.isCancelled { throw CancellationError() }
            try await pay(cost)
        } catch {
            if holdsSharedClaim, let shared = exchange.shared { await shared.release(sharedKey) }
            inFlight.finish(key, .abandoned)
            throw error
        }
        let flight = inFlight.claimed(key)
        // Unstructured: cancelling a waiter (this request included) must not cancel the send the
        // others wait for. A send nobody waits for any more (every waiter's request cancelled)
        // finishes its try and is not retried.
        let sharedClaim = holdsSharedClaim
        UpstreamTracing.sending(units: cost)
        counters.sendStarted()
        Task {
            defer { counters.sendEnded() }
            await send(
                key: key, sharedKey: sharedKey, url: url, headers: headers, cost: cost, flight: flight,
                sharedClaim: sharedClaim)
        }
        return try deliver(await flight.wait(leavingOn: cancellation))
    }

    /// The response under `sharedKey` in the shared store, now also under `key` in this process's
    /// cache and handed to this process's waiters; nil on a miss.
    private func sharedHit(_ key: String, _ sharedKey: String, _ shared: SharedResponses) async -> UpstreamResponse? {
        guard let hit = await shared.lookUp(sharedKey) else { return nil }
        // The shared store keeps bytes; this process keeps the models decoded from them in front.
        let response = exchange.cache?.keepable(hit.response, for: key) ?? hit.response
        exchange.cache?.store(response, for: key, until: hit.expires)
        exchange.inFlight.finish(key, .response(response, expires: hit.expires))
        noteCached(response, until: hit.expires)
        return response
    }

    private func send(
        key: String, sharedKey: String, url: String, headers: [(name: String, value: String)], cost: Int,
        flight: InFlightRequest, sharedClaim: Bool
    ) async {
        let outcome: InFlightRequest.Outcome
        do {
            var response = try await exchange.base.get(url: url, headers: headers) {
                guard flight.hasWaiters else { return false }
                do {
                    try await pay(cost)
                    return true
                } catch {
                    return false
                }
            }
            let ok = (200..<300).contains(response.status)
            UpstreamTracing.answered(status: response.status, tries: response.tries)
            counters.recordRequest(
                service: service, outcome: UpstreamOutcome.label(of: response), cost: cost, tries: response.tries)
            if exchange.saysDailyQuotaIsSpent(service, response) {
                await exchange.ledger.markExhausted(service)
            }
            // Its waiters and later cache hits share one set of decoded values.
            if ok, let cache = exchange.cache { response = cache.keepable(response, for: key) }
            let expires =
                ok
                ? exchange.cache?.store(
                    response, for: key, ttlSeconds: UpstreamCache.maxAge(response.headers) ?? ttlSeconds)
                : nil
            // Into the shared store before the waiters are woken: whoever looks after them finds it.
            if let expires, let shared = exchange.shared {
                await shared.store(response, for: sharedKey, until: expires)
            }
            outcome = .response(response, expires: expires)
        } catch {
            let failure = error as? TransportFailure
            UpstreamTracing.failed(error, tries: failure?.tries ?? 1)
            counters.recordRequest(
                service: service, outcome: UpstreamOutcome.label(of: failure), cost: cost, tries: failure?.tries ?? 1)
            outcome = .failure(error)
        }
        exchange.inFlight.finish(key, outcome)
        // After the store has the response, or how the send failed: the other processes waiting
        // on the claim read it.
        if sharedClaim, let shared = exchange.shared {
            switch outcome {
            case .response(let response, nil): await shared.storeFailure(.response(response), for: sharedKey)
            case .failure(let error as TransportFailure): await shared.storeFailure(.transport(error), for: sharedKey)
            default: break
            }
            await shared.release(sharedKey)
        }
    }

    private func deliver(_ outcome: InFlightRequest.Outcome) throws -> UpstreamResponse {
        switch outcome {
        case .response(let response, let expires):
            if let expires { noteCached(response, until: expires) } else { noteUncached() }
            return response
        case .failure(let error):
            noteUncached()
            throw error
        case .abandoned:
            // Only a claimant abandons, and it never waits on its own flight before sending.
            noteUncached()
            throw UpstreamError(service: service, kind: .unreachable(reason: "the shared request was not sent"))
        }
    }

    /// Pays one try of `cost` units before it is sent: from the request's budget, then from the
    /// provider's daily quota. Nothing is paid when either refuses.
    private func pay(_ cost: Int) async throws(UpstreamError) {
        if let spent = budget.reserve(cost) {
            exchange.recordRefusal(service, reason: "budget")
            throw UpstreamError(service: service, kind: .budgetExceeded(cost: cost, spent: spent, limit: budget.limit))
        }
        switch await exchange.ledger.reserve(service, units: cost, client: client) {
        case .unlimited, .granted: return
        case .shareRefused(let owner, let used, let limit, let day):
            budget.refund(cost)
            exchange.recordRefusal(service, reason: "client_share")
            throw UpstreamError(
                service: service,
                kind: .clientQuotaSpent(owner: owner, used: used, limit: limit, resetsAt: day.resetsAt))
        case .refused(let used, let limit, let day):
            budget.refund(cost)
            exchange.recordRefusal(service, reason: "daily_quota")
            throw UpstreamError(
                service: service, kind: .dailyQuotaSpent(used: used, limit: limit, resetsAt: day.resetsAt))
        }
    }
}
