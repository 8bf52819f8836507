import Foundation
import GraphQL
import HTTPTypes
import Testing

@testable import Catalog

extension LoopbackTests {
    /// A dry run plans a document's upstream calls and sends none.
    @Suite struct GatewayDryRun {
        static func dryRun(_ h: GatewayHarness, _ query: String) async throws -> GatewayResponse {
            try await RequestMode.$dryRun.withValue(true) { try await h.query(query) }
        }

        static func plan(_ response: GatewayResponse) throws -> JSONValue {
            try #require(response.extensions["plan"])
        }

        @Test func aColdPlanNamesTheFirstCallAndSendsNothing() async throws {
            try await GatewayHarness.configured({ $0.dailyQuota = [.youTube: 10_000] }).run { h in
                let response = try await Self.dryRun(h, GatewayRequestCounts.ironMaiden)
                #expect(try await h.loopback.requestLog().entries.isEmpty)
                #expect(response.result.data == nil)
                #expect(response.result.errors == [])
                let plan = try Self.plan(response)
                #expect(plan["calls"] == .int(1))
                #expect(plan["send"] == .int(1))
                #expect(plan["units"] == .int(1))
                #expect(plan["complete"] == .bool(false))
                #expect(plan["providers", "itunes", "endpoints", "/search", "send"] == .int(1))
                #expect(plan["levels", 0, "level"] == .int(1))
                #expect(plan["levels", 0, "providers"] == .array([.string("itunes")]))
                #expect(plan["quota", "youtube", "limit"] == .int(10_000))
                // The estimate prices what the plan cannot see yet.
                #expect(response.estimatedCost == 37_503)
                #expect(response.extensions["cost"]?["estimated"] == .int(37_503))
            }
        }

        @Test func aPlanFollowsWhatTheCacheHoldsAndNamesTheBatchesBelow() async throws {
            try await GatewayHarness.run { h in
                _ = try await h.query(#"{ artist(name: "Iron Maiden") { name albums { title } } }"#)
                let before = try await h.loopback.requestLog().entries.count
                #expect(before == 2)
                let response = try await Self.dryRun(h, GatewayRequestCounts.ironMaiden)
                #expect(try await h.loopback.requestLog().entries.count == before)
                let plan = try Self.plan(response)
                // The artist and its albums are known: the plan goes down to the one songs
                // lookup of the 21 albums, which would be sent, and stops there.
                #expect(plan["send"] == .int(1))
                #expect(plan["providers", "itunes", "endpoints", "/lookup", "ids"] == .int(21))
                // `artist { albums { tracks } }`: the tracks' lookup is the third level.
                #expect(plan["levels", 0, "level"] == .int(3))
                #expect(plan["levels", 0, "send"] == .int(1))
                #expect(plan["complete"] == .bool(false))

                _ = try await h.query(GatewayRequestCounts.ironMaiden)
                let after = try await h.loopback.requestLog().entries.count
                #expect(after == 153)
                // Once the query ran, its plan sends nothing.
                let warm = try await Self.dryRun(h, GatewayRequestCounts.ironMaiden)
                let warmPlan = try Self.plan(warm)
                #expect(warmPlan["send"] == .int(0))
                #expect(warmPlan["units"] == .int(0))
                #expect(warmPlan["complete"] == .bool(true))
                #expect(try await h.loopback.requestLog().entries.count == after)
            }
        }
    }
}
