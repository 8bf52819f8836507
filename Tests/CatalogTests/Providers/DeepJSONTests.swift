import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

/// Deeply nested upstream bodies are a bad response, never a crash.
///
/// `[` × 513 stopped the process inside Foundation's `JSONDecoder` (a trap in its error
/// reporting at its 512-level limit, found by fuzz/FuzzYouTube), which `WireJSON.decode` used
/// then; every decoder below goes through `WireJSON.decode`, now `JSONReader` (its own depth
/// limit) and `JSONValueDecoder`.
@Suite struct DeepJSONTests {
    typealias Decode = @Sendable (Int, [String: String], [UInt8]) throws(UpstreamError) -> Void

    /// A provider decoder with its value dropped: only whether it throws matters here.
    static func ignoringValue<Value>(
        _ decode: @escaping @Sendable (Int, [String: String], [UInt8]) throws(UpstreamError) -> Value
    ) -> Decode {
        { status, headers, body throws(UpstreamError) in _ = try decode(status, headers, body) }
    }

    static let decoders: [(String, Decode)] = [
        ("YouTube videos", ignoringValue(YouTubeProvider.decodeVideos)),
        ("YouTube search", ignoringValue(YouTubeProvider.decodeSearch)),
        ("iTunes albums", ignoringValue(ITunesProvider.decodeAlbums)),
        ("Apple Music search", ignoringValue(AppleMusicProvider.decodeSearch)),
        ("Rakuten search", ignoringValue(RakutenProvider.decodeSearch)),
        (
            "TMDB movie",  // its fourth parameter has a default
            ignoringValue { s, h, b throws(UpstreamError) in
                try TMDBProvider.decodeMovie(status: s, headers: h, body: b)
            }
        ),
    ]

    static let bodies: [(String, [UInt8])] = [
        ("513 open arrays", Array(repeating: UInt8(ascii: "["), count: 513)),
        (
            "513 closed arrays",
            Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
        ),
        (
            "300 nested objects",
            Array((String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300)).utf8)
        ),
        ("100,000 open arrays", Array(repeating: UInt8(ascii: "["), count: 100_000)),
    ]

    @Test(arguments: [200, 500])
    func aBodyNestedTooDeepIsABadResponse(status: Int) {
        for (decoder, decode) in Self.decoders {
            for (name, body) in Self.bodies {
                do throws(UpstreamError) {
                    try decode(status, [:], body)
                    Issue.record("\(decoder) accepted \(name) with status \(status)")
                } catch {
                    // An error status keeps its own code; what matters there is the answer, not a crash.
                    let expected =
                        status == 200 ? ["UPSTREAM_BAD_RESPONSE"] : ["UPSTREAM_HTTP_ERROR", "UPSTREAM_BAD_RESPONSE"]
                    #expect(expected.contains(error.code), "\(decoder), \(name), \(status): \(error)")
                }
            }
        }
    }

    /// Deeper than `JSONReader.maxDepth` is refused by the reader, before any decoding, and
    /// the reason says so; at the limit a body is read (and then fails as the wrong shape).
    @Test func theReasonNamesTheDepthLimit() {
        func reason(_ body: [UInt8]) -> String? {
            do throws(UpstreamError) {
                _ = try WireJSON.decode(ITunesEnvelope.self, from: body, service: .iTunes, status: 200)
                return nil
            } catch {
                guard case .badResponse(let reason) = error.kind else { return "\(error.kind)" }
                return reason
            }
        }
        let depth = JSONReader.maxDepth
        let tooDeep = Array((String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)).utf8)
        #expect(reason(tooDeep) == "JSON nested deeper than \(depth) levels")
        #expect(
            reason(Array(repeating: UInt8(ascii: "["), count: 100_000)) == "JSON nested deeper than \(depth) levels")
        let atLimit = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        #expect(reason(atLimit) == "unexpected value at top level")
        let quoted = Array(("{\"a\":\"" + String(repeating: "[", count: 5_000) + "\\\"[\"}").utf8)
        #expect(reason(quoted) == "missing resultCount")
    }
}
