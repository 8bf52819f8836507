import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// The hard budget of `--max-query-cost N`: whatever the estimate said, the upstream
    /// requests one query actually sends (every try) never cost more than N; a call that would
    /// cross it is not sent and its field gets `QUERY_BUDGET_EXCEEDED`.
    @Suite struct GatewayBudget {
        /// The issue's album: 57 tracks, estimated at 1 + 1 + 15 × 100 = 1,502, which spent 5,702.
        static let album =
            #"{ album(id: "itunes:album:200141") { title tracks { title videos(first: 1) { title } } } }"#

        /// Quota units of the requests DemoUpstream logged, at the providers' prices.
        static func unitsSent(_ h: GatewayHarness) async throws -> Int {
            try await h.loopback.requestLog().entries.map { UpstreamTraits.builtIn[.youTube].units(ofURL: $0.path) }
                .reduce(0, +)
        }

        static func estimate(_ query: String, schema: Schema) throws -> Int {
            let source = Source(query)
            return QueryCost.estimate(
                document: try parse(source), source: source, operationName: nil, variables: JSONObject(),
                schema: schema)
        }

        static func budgetErrors(_ response: GatewayResponse) -> [GraphQLError] {
            response.result.errors.filter { $0.extensions["code"] == .string("QUERY_BUDGET_EXCEEDED") }
        }

        @Test func aQueryEstimatedUnderTheLimitStopsSpendingAtIt() async throws {
            try await GatewayHarness.configured({ $0.maxQueryCost = 2_000 }).run { h in
                let response = try await h.query(Self.album)
                #expect(response.estimatedCost == 1_502)
                #expect(!response.refused)
                // 1 album lookup + 1 songs lookup, then 19 of the searches fit: 2 + 1,900.
                #expect(response.counts.cost == 1_902)
                #expect(try await Self.unitsSent(h) == 1_902)
                let log = try await h.loopback.requestLog().entries
                #expect(log.filter { $0.path == "/youtube/v3/search" }.count == 19)
                let data = try #require(response.result.data)
                #expect(data["album", "title"] != nil)
                let tracks = try #require(data["album", "tracks"]?.arrayCount)
                var answered = 0
                for index in 0..<tracks where data["album", "tracks", index, "videos"]?.arrayCount == 1 {
                    answered += 1
                }
                let refused = Self.budgetErrors(response)
                #expect(answered >= 19)
                #expect(refused.count == tracks - answered)
                #expect(refused.count == response.result.errors.count)
                for error in refused {
                    #expect(error.path?.first == .key("album"))
                    #expect(error.path?.last == .key("videos"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["maxQueryCost"] == .int(2_000))
                    #expect(error.message.hasPrefix("youtube call not sent: it costs 100 quota units"))
                }
            }
        }

        @Test func theIronMaidenQueryIsRefusedByItsEstimateOrAnswersWhatFitsWhenMeasured() async throws {
            try await GatewayHarness.configured({ $0.maxQueryCost = 2_000 }).run { h in
                let refused = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(refused.refused)
                #expect(refused.estimatedCost == 37_503)
                #expect(try await Self.unitsSent(h) == 0)
            }
            try await GatewayHarness.configured({
                $0.maxQueryCost = 2_000
                $0.queryCostMode = .measure
            }).run { h in
                let response = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(!response.refused)
                #expect(response.estimatedCost == 37_503)
                #expect(response.result.data?["artist", "name"] == .string("Iron Maiden"))
                #expect(response.result.data?["artist", "albums"]?.arrayCount == 21)
                // 1 search + 1 albums lookup + 1 songs lookup, then 19 YouTube searches.
                #expect(response.counts.cost == 1_903)
                #expect(try await Self.unitsSent(h) == 1_903)
                // Every track without its video has a budget error at its path, and nothing else failed.
                #expect(Self.budgetErrors(response).count == 213 - Self.tracksWithAVideo(response))
                #expect(Self.budgetErrors(response).count == response.result.errors.count)
                #expect(Self.tracksWithAVideo(response) >= 19)
            }
        }

        static func tracksWithAVideo(_ response: GatewayResponse) -> Int {
            var answered = 0
            guard let albums = response.result.data?["artist", "albums"], let count = albums.arrayCount else {
                return 0
            }
            for a in 0..<count {
                for t in 0..<(albums[a, "tracks"]?.arrayCount ?? 0)
                where albums[a, "tracks", t, "videos"]?.arrayCount == 1 {
                    answered += 1
                }
            }
            return answered
        }

        @Test func aRetryThatWouldCrossTheBudgetIsNotSent() async throws {
            try await GatewayHarness.configured({
                $0.maxQueryCost = 150
                $0.upstreamMaxTries = 2
            }).run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search":{"status":503}}"#)
                let response = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                // The first try (100) fits, its retry would make 200: the 503 is the answer.
                #expect(response.result.errors.first?.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                #expect(try await h.loopback.requestLog().entries.count == 1)
                #expect(response.counts.cost == 100)
                #expect(response.counts.requests == ["youtube": ["http_error": 1]])
            }
            try await GatewayHarness.configured({
                $0.maxQueryCost = 200
                $0.upstreamMaxTries = 2
            }).run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search":{"status":503}}"#)
                let response = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                #expect(try await h.loopback.requestLog().entries.count == 2)  // the retry fits
                #expect(response.counts.cost == 200)
            }
        }

        /// A batch (GraphQL over HTTP's request batching) of random queries under a random N.
        /// Apollo Router runs each operation of a batch as a request of its own, each under its own
        /// limit; ours share one request's loaders, so their spend cannot be told apart, and they
        /// share one budget of N per operation that runs: the batch never sends more than its
        /// operations could apart. Every refusal is at a path, nothing refused is sent, and each
        /// response reports the batch's shared spend.
        @Test func aBatchOfRandomQueriesNeverSendsMoreThanItsOperationsMaySpend() async throws {
            let schema = try GatewaySchema.embedded()
            var generator = RandomQueries(seed: 0x5EED_0003, schema: schema)
            var bitten = 0
            try await Loopback.run { loopback in
                try await loopback.setFaults(#"{"/youtube/v3/search":{"status":503,"everyNth":4}}"#)
                let transport = loopback.transport(timeoutMs: 60_000, maxTries: 2)
                for round in 0..<80 {
                    let queries = (0..<generator.int(2...4)).map { _ in generator.query() }
                    // Two in three tight, around the price of a search or two.
                    let budget =
                        round % 3 != 0
                        ? generator.pick([1, 2, 3, 50, 99, 100, 101, 150, 199, 201]) : generator.budget()
                    var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL, maxQueryCost: budget)
                    configuration.queryCostMode = round % 4 == 0 ? .enforce : .measure
                    configuration.upstreamMaxTries = 2
                    let h = GatewayHarness(
                        gateway: try Gateway(configuration: configuration, transport: transport), loopback: loopback)
                    try await loopback.clearLog()
                    let responses = await h.gateway.execute(batch: try GatewayBatch.operations(h, queries))
                    let sent = try await Self.unitsSent(h)
                    let ran = responses.filter { !$0.refused }.count
                    #expect(sent <= budget * ran, "batch \(round) sent \(sent) over \(ran) × \(budget): \(queries)")
                    for response in responses where !response.refused {
                        #expect(response.counts.cost == sent, "batch \(round): \(queries)")
                        for error in Self.budgetErrors(response) {
                            #expect(error.path != nil, "a budget error without a path: \(queries)")
                        }
                    }
                    if responses.contains(where: { !Self.budgetErrors($0).isEmpty }) { bitten += 1 }
                }
            }
            print("random batches: \(bitten) of 80 hit their budget")
            #expect(bitten >= 8)
        }

        /// "For any query and any N": seeded random queries over the schema, each on a cold
        /// gateway with a random budget, in both modes of the estimate, then again with an
        /// upstream that fails every third YouTube search and a retry per call.
        @Test(arguments: [false, true])
        func theActualSpendOfRandomQueriesNeverPassesTheirBudget(withRetries: Bool) async throws {
            let schema = try GatewaySchema.embedded()
            var generator = RandomQueries(seed: withRetries ? 0x5EED_0002 : 0x5EED_0001, schema: schema)
            var partial = 0
            var refusedByEstimate = 0
            var spentSomething = 0
            try await Loopback.run { loopback in
                if withRetries {
                    try await loopback.setFaults(#"{"/youtube/v3/search":{"status":503,"everyNth":3}}"#)
                }
                let transport = loopback.transport(timeoutMs: 60_000, maxTries: withRetries ? 2 : 1)
                for round in 0..<200 {
                    let query = generator.query()
                    // Half the budgets fall below the query's own estimate, where the budget must bite.
                    let estimate = try Self.estimate(query, schema: schema)
                    let budget =
                        round % 2 == 0 && estimate > 1 ? generator.int(1...min(estimate, 10_000)) : generator.budget()
                    var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL, maxQueryCost: budget)
                    configuration.queryCostMode = round % 3 == 0 ? .enforce : .measure
                    configuration.upstreamMaxTries = withRetries ? 2 : 1
                    let h = GatewayHarness(
                        gateway: try Gateway(configuration: configuration, transport: transport), loopback: loopback)
                    try await loopback.clearLog()
                    let response = try await h.query(query)
                    let sent = try await Self.unitsSent(h)
                    #expect(sent <= budget, "query \(round) spent \(sent) over its budget \(budget): \(query)")
                    #expect(response.counts.cost == sent, "query \(round): \(query)")
                    for error in Self.budgetErrors(response) {
                        #expect(error.path != nil, "a budget error without a path: \(query)")
                    }
                    if response.refused { refusedByEstimate += 1 }
                    if !Self.budgetErrors(response).isEmpty { partial += 1 }
                    if sent > 0 { spentSomething += 1 }
                }
            }
            // The property was exercised, not skipped: budgets bit, and queries spent.
            print(
                "random budgets: \(partial) partial, \(refusedByEstimate) refused by the estimate, \(spentSomething) spent"
            )
            #expect(partial >= 20)
            #expect(refusedByEstimate >= 1)
            #expect(spentSomething >= 20)
        }
    }
}
