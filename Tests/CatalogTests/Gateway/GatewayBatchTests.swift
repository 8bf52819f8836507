import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// A batch runs as one request: its operations share the request's DataLoaders, so their
    /// upstream reads batch together, counted against DemoUpstream's request log.
    @Suite struct GatewayBatch {
        static let acdc = #"{ artist(name: "AC/DC") { name albums(first: 2) { title } } }"#
        static let maiden = #"{ artist(name: "Iron Maiden") { name albums(first: 2) { title } } }"#

        static func operations(_ h: GatewayHarness, _ queries: [String], variables: [JSONObject]? = nil) throws
            -> [GatewayOperation]
        {
            try queries.enumerated().map { index, query in
                guard case .success(let prepared) = h.gateway.prepare(query) else { throw HarnessError("rejected") }
                return GatewayOperation(
                    prepared: prepared, operationName: nil, variables: variables?[index] ?? JSONObject())
            }
        }

        /// Apart, each is an artist search and an albums lookup (4 requests); batched, the two
        /// albums lookups are one, for both artist ids.
        @Test func operationsOfABatchShareTheirUpstreamReads() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                let apart = [try await h.query(Self.acdc), try await h.query(Self.maiden)]
                #expect(try await h.loopback.requestLog().entries.count == 4)
                try await h.loopback.clearLog()

                let batch = await h.gateway.execute(batch: try Self.operations(h, [Self.acdc, Self.maiden]))
                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 3)
                #expect(log.filter { $0.path == "/search" }.count == 2)
                let lookups = log.filter { $0.path == "/lookup" }
                #expect(lookups.count == 1)
                #expect(lookups.first?.query.hasPrefix("id=100001,100090&entity=album") == true, "\(lookups)")
                #expect(batch.count == 2)
                for (index, response) in batch.enumerated() {
                    #expect(response.result.errors == [])
                    #expect(response.result.dataJSON == apart[index].result.dataJSON)
                    #expect(response.countsSharedWithBatch)
                    #expect(response.counts.totalRequests == 3)
                    #expect(response.estimatedCost == apart[index].estimatedCost)
                }
            }
        }

        /// An operation that never starts (a request error) or is refused for its cost gives
        /// back its share of the dispatch count: the others still dispatch and answer.
        @Test func failingOperationsDoNotHoldTheBatchBack() async throws {
            try await GatewayHarness.configured({ $0.maxQueryCost = 3 }).run { h in
                let costly = #"{ artist(name: "AC/DC") { albums(first: 2) { tracks { videos { title } } } } }"#
                let coercion = "query ($n: String!) { artist(name: $n) { name } }"
                let operations = try Self.operations(
                    h, [Self.acdc, coercion, costly, Self.maiden],
                    variables: [JSONObject(), JSONObject([("n", .int(3))]), JSONObject(), JSONObject()])
                let batch = await h.gateway.execute(batch: operations)
                #expect(batch.count == 4)
                #expect(batch[0].result.data?["artist", "name"] == .string("AC/DC"))
                #expect(batch[1].result.isRequestError)
                #expect(batch[2].refused)
                #expect(batch[2].result.errors.first?.extensions["code"] == .string("QUERY_COST_EXCEEDED"))
                #expect(!batch[2].countsSharedWithBatch)
                #expect(batch[3].result.data?["artist", "name"] == .string("Iron Maiden"))
                #expect(try await h.loopback.requestLog().entries.count == 3)
            }
        }

        /// Error-free results are kept one by one: a repeat of the batch reads nothing upstream.
        @Test func aRepeatedBatchIsAnsweredFromKeptResults() async throws {
            try await GatewayHarness.run { h in
                let first = await h.gateway.execute(batch: try Self.operations(h, [Self.acdc, Self.maiden]))
                #expect(first.allSatisfy { $0.freshUntil != nil })
                try await h.loopback.clearLog()
                let again = await h.gateway.execute(batch: try Self.operations(h, [Self.maiden, Self.acdc]))
                #expect(try await h.loopback.requestLog().entries.count == 0)
                #expect(again[0].result.dataJSON == first[1].result.dataJSON)
                #expect(again[1].result.dataJSON == first[0].result.dataJSON)
                #expect(again.allSatisfy { !$0.countsSharedWithBatch && $0.counts.cacheHits > 0 })
                // Fresh until the first of the responses they stand for expires (15 minutes for iTunes).
                let left = ContinuousClock.now.duration(to: try #require(again[0].freshUntil))
                #expect(left > .seconds(800) && left <= .seconds(900))
            }
        }

        @Test func aResultWithErrorsIsNotFresh() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ a: artist(name: "AC/DC") { name } b: album(id: "tmdb:album:1") { title } }"#)
                #expect(!response.result.errors.isEmpty)
                #expect(response.freshUntil == nil)
                let clean = try await h.query(Self.acdc)
                #expect(clean.freshUntil != nil)
            }
        }
    }
}
