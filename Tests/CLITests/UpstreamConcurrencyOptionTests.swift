import Foundation
import TestSupport
import Testing

/// `--upstream-concurrency N` of `query` and `serve`: requests in flight per upstream host.
@Suite struct UpstreamConcurrencyOptionTests {
    static var example: String {
        CLI.root.appendingPathComponent("examples/artist-albums-tracks-videos.graphql").path
    }

    @Test func zeroIsRefusedWithTheReason() throws {
        let run = try CLI.run(["query", "--demo", "--upstream-concurrency", "0", Self.example])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--upstream-concurrency must be at least 1"))
        #expect(run.stdout.isEmpty)
    }

    @Test func aCapOfOneStillAnswersTheWholeQuery() throws {
        let run = try CLI.run(["query", "--demo", "--upstream-concurrency", "1", Self.example])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix(#"{"data":{"artist":{"name":"AC/DC","#))
        #expect(!run.stdout.contains("\"errors\""))
    }
}
