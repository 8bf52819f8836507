import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// Answers past their freshness, served when the upstream cannot answer (RFC 5861
    /// `stale-if-error`) and marked with each value's path and age.
    @Suite struct GatewayStaleAnswers {
        static let nested =
            #"{ artist(name: "Iron Maiden") { name albums(first: 2) { title tracks { title videos(first: 1) { title } } } } }"#

        static func youTubeSearches(_ h: GatewayHarness) async throws -> Int {
            try await h.loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }.count
        }

        /// A one-second freshness for every provider, and YouTube's day worth `searches` searches.
        static func configure(searches: Int, staleSeconds: Int = 86_400) -> (inout GatewayConfiguration) -> Void {
            { configuration in
                for service in UpstreamService.builtIn { configuration.cacheTTLSeconds[service] = 1 }
                configuration.dailyQuota = [.youTube: 100 * searches]
                configuration.staleIfErrorSeconds = staleSeconds
            }
        }

        static func videoPaths(_ response: GatewayResponse) -> [[PathComponent]] {
            response.stale.map(\.path).filter { $0.last == .key("videos") }
        }

        @Test func aSpentDayAnswersTheRepeatedQueryStaleWithPathsAndAgesAndSendsNothing() async throws {
            try await GatewayHarness.configured(Self.configure(searches: 1_000)).run { h in
                let first = try await h.query(Self.nested)
                #expect(first.result.errors == [])
                #expect(first.stale.isEmpty)
                let searches = try await Self.youTubeSearches(h)
                #expect(searches > 1)
                // The answers go past their freshness, and YouTube's day is spent meanwhile.
                try await Task.sleep(for: .milliseconds(1_100))
                await h.gateway.ledger.markExhausted(.youTube)
                let logged = try await h.loopback.requestLog().entries.count

                let repeated = try await h.query(Self.nested)
                #expect(repeated.result.errors == [])
                #expect(repeated.result.data == first.result.data)
                // Every video field is listed, each at its own path, none older than the test.
                let paths = Self.videoPaths(repeated)
                #expect(paths.count == searches)
                #expect(Set(paths.map { "\($0)" }).count == paths.count)
                #expect(paths.first?.prefix(3) == [.key("artist"), .key("albums"), .index(0)])
                #expect(repeated.stale.allSatisfy { (1...60).contains($0.ageSeconds) })
                #expect(repeated.staleAgeSeconds.map { $0 >= 1 } == true)
                guard case .array(let listed)? = repeated.extensions["stale"] else {
                    Issue.record("no extensions.stale")
                    return
                }
                #expect(listed.count == repeated.stale.count)
                #expect(listed.first?["path", 0] == .string("artist"))
                // Only the iTunes reads went out again (fresh answers exist for them); no search did.
                #expect(try await Self.youTubeSearches(h) == searches)
                #expect(try await h.loopback.requestLog().entries.count > logged)
                // Nothing stale is kept as a fresh result.
                #expect(repeated.freshUntil == nil)
            }
        }

        @Test func withoutStaleAnswersTheRefusalsAreWhatTheyWere() async throws {
            try await GatewayHarness.configured(Self.configure(searches: 1_000, staleSeconds: 0)).run { h in
                _ = try await h.query(Self.nested)
                try await Task.sleep(for: .milliseconds(1_100))
                await h.gateway.ledger.markExhausted(.youTube)
                let repeated = try await h.query(Self.nested)
                #expect(repeated.stale.isEmpty)
                #expect(repeated.extensions["stale"] == nil)
                #expect(!repeated.result.errors.isEmpty)
                #expect(
                    repeated.result.errors.allSatisfy { $0.extensions["code"] == .string("UPSTREAM_QUOTA_EXCEEDED") })
                #expect(repeated.result.errors.allSatisfy { $0.path?.last == .key("videos") })
            }
        }

        @Test func anUpstreamFailureIsAnsweredStaleAndAFailureWithoutAKeptAnswerStaysAnError() async throws {
            try await GatewayHarness.configured(Self.configure(searches: 1_000)).run { h in
                let query = #"{ videos(query: "AC/DC", first: 1) { title } }"#
                let first = try await h.query(query)
                #expect(first.result.errors == [])
                try await Task.sleep(for: .milliseconds(1_100))
                try await h.loopback.setFaults(#"{"/youtube":{"status":503}}"#)
                let stale = try await h.query(query)
                #expect(stale.result.errors == [])
                #expect(stale.result.data == first.result.data)
                #expect(stale.stale.map(\.path) == [[.key("videos")]])
                // Nothing kept for this one: the upstream's error, as before.
                let other = try await h.query(#"{ videos(query: "Aerosmith", first: 1) { title } }"#)
                #expect(other.stale.isEmpty)
                #expect(other.result.errors.first?.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                // Once the upstream answers again, the answer is fresh.
                try await h.loopback.setFaults("{}")
                let fresh = try await h.query(query)
                #expect(fresh.stale.isEmpty)
                #expect(fresh.result.errors == [])
            }
        }
    }
}
