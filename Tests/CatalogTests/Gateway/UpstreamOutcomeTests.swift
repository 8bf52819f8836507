import Testing
import UpstreamEconomy

@testable import Catalog

/// Each way an upstream request can end is counted under its own outcome: a 9 MB body is
/// `too_large` (it was `unreachable`), an HTML page or a body cut short is `bad_response` (they
/// were `ok`), beside `ok`, `http_error`, `timeout` and `unreachable`.
@Suite struct UpstreamOutcomeTests {
    private static let artist = #"{ artist(name: "AC/DC") { name } }"#

    /// The iTunes counts of one query of the artist with `faults` set on the demo's `/search`.
    private static func itunesOutcomes(
        faults: String, configure: @escaping (inout GatewayConfiguration) -> Void = { _ in }
    ) async throws -> [String: Int] {
        try await GatewayHarness.configured(configure).run { h in
            try await h.loopback.setFaults(faults)
            let response = try await h.query(artist)
            return response.counts.requests["itunes"] ?? [:]
        }
    }

    @Test func aJSONAnswerIsOk() async throws {
        #expect(try await Self.itunesOutcomes(faults: "{}") == ["ok": 1])
    }

    @Test func anHTMLPageIsABadResponse() async throws {
        #expect(try await Self.itunesOutcomes(faults: #"{"/search": {"html": true}}"#) == ["bad_response": 1])
    }

    @Test func aBodyCutShortIsABadResponse() async throws {
        #expect(try await Self.itunesOutcomes(faults: #"{"/search": {"truncated": true}}"#) == ["bad_response": 1])
    }

    @Test func aServerErrorIsAnHTTPError() async throws {
        #expect(try await Self.itunesOutcomes(faults: #"{"/search": {"status": 500}}"#) == ["http_error": 1])
    }

    @Test func aBodyPastTheSizeLimitIsTooLarge() async throws {
        #expect(
            try await Self.itunesOutcomes(faults: #"{"/search": {"padBytes": 9000000}}"#) == ["too_large": 1])
    }

    @Test func anAnswerThatNeverComesIsATimeout() async throws {
        let outcomes = try await Self.itunesOutcomes(
            faults: #"{"/search": {"hang": true}}"#, configure: { $0.upstreamTimeoutMs = 300 })
        #expect(outcomes == ["timeout": 1])
    }

    @Test func noConnectionIsUnreachable() async throws {
        let outcomes = try await Self.itunesOutcomes(
            faults: "{}", configure: { $0.baseURLs[.iTunes] = "http://127.0.0.1:9" })
        #expect(outcomes == ["unreachable": 1])
    }

    @Test(arguments: [
        ("{}", true), ("[1]", true), (" \n{\"a\":1}\r\n ", true), ("", false), ("   ", false),
        ("<html></html>", false), ("{\"results\":[{", false), ("[1}", false), ("null", false),
    ])
    func looksLikeJSONReadsTheFirstAndLastBytes(body: String, expected: Bool) {
        #expect(UpstreamOutcome.looksLikeJSON(Array(body.utf8)) == expected)
    }
}
