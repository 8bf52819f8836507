import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// Results kept beside the upstream responses they were read from: a repeat is answered
    /// without executing, but only while every response it read is still cached.
    @Suite struct GatewayResultCache {
        static let acdc = #"{ artist(name: "AC/DC") { name albums(first: 2) { title trackCount } } }"#

        static func key(_ h: GatewayHarness, _ query: String, variables: JSONObject = JSONObject()) throws -> String {
            guard case .success(let prepared) = h.gateway.prepare(query) else { throw HarnessError("query rejected") }
            return try #require(
                UpstreamCache.resultKey(document: prepared.source, operationName: nil, variables: variables))
        }

        @Test func anErrorFreeResultIsKeptWithTheReadsItStandsFor() async throws {
            try await GatewayHarness.run { h in
                let first = try await h.query(Self.acdc)
                #expect(first.result.errors == [])
                #expect(first.counts.totalRequests == 2)  // artist search + albums lookup
                let cache = try #require(h.gateway.cache)
                let kept = try #require(cache.lookUpResult(try Self.key(h, Self.acdc)) as? CachedResult)
                #expect(kept.upstreamReads == 2)
                #expect(kept.estimatedCost == first.estimatedCost)
                #expect(kept.result.dataJSON == first.result.dataJSON)
                #expect(cache.usage.entries == 5)  // 2 responses, their 2 batches of kept answers, the result

                try await h.loopback.clearLog()
                let again = try await h.query(Self.acdc)
                #expect(again.result.dataJSON == first.result.dataJSON)
                #expect(again.counts.totalRequests == 0)
                #expect(again.counts.cacheHits == 2)
                #expect(again.counts.cost == 0)
                #expect(again.estimatedCost == first.estimatedCost)
                #expect(try await h.loopback.requestLog().entries.count == 0)
            }
        }

        @Test func cachedResponseAnswersOnlyFromAKeptResult() async throws {
            try await GatewayHarness.run { h in
                guard case .success(let prepared) = h.gateway.prepare(Self.acdc) else { throw HarnessError("rejected") }
                #expect(
                    h.gateway.cachedResponse(prepared: prepared, operationName: nil, variables: JSONObject()) == nil)
                let first = try await h.query(Self.acdc)
                let cached = try #require(
                    h.gateway.cachedResponse(prepared: prepared, operationName: nil, variables: JSONObject()))
                #expect(cached.result.dataJSON == first.result.dataJSON)
                #expect(cached.counts.cacheHits == 2)
                #expect(cached.counts.totalRequests == 0)
            }
        }

        @Test func aKeptResultAnswersWithoutExecuting() async throws {
            try await GatewayHarness.run { h in
                // A result nobody could compute from the catalog: only the cache can have answered.
                let planted = CachedResult(
                    result: ExecutionResult(dataJSON: Array(#"{"artist":{"name":"planted","albums":[]}}"#.utf8)),
                    estimatedCost: 7, upstreamReads: 5)
                let cache = try #require(h.gateway.cache)
                cache.storeResult(planted, for: try Self.key(h, Self.acdc), expires: .now.advanced(by: .seconds(60)))
                let response = try await h.query(Self.acdc)
                #expect(response.result.data?["artist", "name"] == .string("planted"))
                #expect(response.counts.cacheHits == 5)
                #expect(response.estimatedCost == 7)
                #expect(try await h.loopback.requestLog().entries.count == 0)
            }
        }

        @Test func variablesAndOperationNamesKeepSeparateResults() async throws {
            try await GatewayHarness.run { h in
                let query = #"query Named($name: String) { artist(name: $name) { name } }"#
                let acdc = try await h.query(query, variables: JSONObject([("name", .string("AC/DC"))]))
                let maiden = try await h.query(query, variables: JSONObject([("name", .string("Iron Maiden"))]))
                #expect(acdc.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(maiden.result.data?["artist", "name"] == .string("Iron Maiden"))
                let again = try await h.query(query, variables: JSONObject([("name", .string("AC/DC"))]))
                #expect(again.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(again.counts.cacheHits == 1)
                #expect(try await h.loopback.requestLog().entries.count == 2)

                guard case .success(let prepared) = h.gateway.prepare(query) else { throw HarnessError("rejected") }
                let variables = JSONObject([("name", .string("AC/DC"))])
                #expect(
                    UpstreamCache.resultKey(document: prepared.source, operationName: "Named", variables: variables)
                        != UpstreamCache.resultKey(document: prepared.source, operationName: nil, variables: variables))
            }
        }

        @Test func aResultThatReadAnUncachedResponseIsNotKept() async throws {
            // YouTube answers are not cached here (TTL 0): the track list is, the videos are not.
            try await GatewayHarness.configured({ $0.cacheTTLSeconds[.youTube] = 0 }).run { h in
                let query =
                    #"{ artist(name: "AC/DC") { albums(first: 1) { title } } videos(query: "Back in Black", first: 1) { title } }"#
                let first = try await h.query(query)
                #expect(first.result.errors == [])
                #expect(first.counts.totalRequests == 3)
                #expect(h.gateway.cache?.lookUpResult(try Self.key(h, query)) == nil)
                let again = try await h.query(query)
                #expect(again.counts.totalRequests == 1)  // the YouTube search again
                #expect(again.counts.cacheHits == 2)
            }
        }

        @Test func resultsWithErrorsAreNotKept() async throws {
            try await GatewayHarness.run { h in
                let query = #"{ artist(name: "AC/DC") { name } track(id: "itunes:track:not-a-number") { title } }"#
                let first = try await h.query(query)
                #expect(first.result.errors.first?.extensions["code"] == .string("BAD_USER_INPUT"))
                #expect(first.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(h.gateway.cache?.lookUpResult(try Self.key(h, query)) == nil)
            }
        }

        @Test func aSuccessStatusThatCannotBeReadIsNotAnsweredAgain() async throws {
            try await GatewayHarness.run { h in
                let query = #"{ artist(name: "Kiss") { name } }"#
                try await h.loopback.setFaults(#"{"/search":{"html":true}}"#)
                let broken = try await h.query(query)
                #expect(broken.result.errors.first?.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
                try await h.loopback.setFaults("{}")
                let recovered = try await h.query(query)
                #expect(recovered.result.errors == [])
                #expect(recovered.result.data?["artist", "name"] == .string("Kiss"))
                #expect(recovered.counts.totalRequests == 1)
                #expect(recovered.counts.cacheHits == 0)
            }
        }

        @Test func turnedOffEveryRepeatExecutesFromTheUpstreamCache() async throws {
            try await GatewayHarness.configured({ $0.cacheResults = false }).run { h in
                _ = try await h.query(Self.acdc)
                #expect(h.gateway.cache?.lookUpResult(try Self.key(h, Self.acdc)) == nil)
                #expect(h.gateway.cache?.usage.entries == 4)  // 2 responses, their 2 batches of kept answers
                let again = try await h.query(Self.acdc)
                #expect(again.counts.totalRequests == 0)
                #expect(again.counts.cacheHits == 2)
            }
        }
    }
}
