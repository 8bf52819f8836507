import Testing

@testable import Catalog

/// Upstream bodies nested deeper than `WireJSON.maxDepth` are a bad response, never a crash.
///
/// `[` × 513 stopped the process inside Foundation's `JSONDecoder` (a trap in its error
/// reporting at its 512-level limit, found by fuzz/FuzzYouTube); every decoder below goes
/// through `WireJSON.decode`, and this suite crashed the test process before the depth check.
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

    @Test func depthCountsBracketsOutsideStringsOnly() {
        let quoted = Array(("{\"a\":\"" + String(repeating: "[", count: 1_000) + "\\\"[\"}").utf8)
        #expect(!WireJSON.nestsDeeper(than: 256, quoted))
        let deep = Array((String(repeating: "[", count: 257) + String(repeating: "]", count: 257)).utf8)
        #expect(WireJSON.nestsDeeper(than: 256, deep))
        let atLimit = Array((String(repeating: "[", count: 256) + String(repeating: "]", count: 256)).utf8)
        #expect(!WireJSON.nestsDeeper(than: 256, atLimit))
        let siblings = Array(("[" + Array(repeating: "[[]]", count: 1_000).joined(separator: ",") + "]").utf8)
        #expect(!WireJSON.nestsDeeper(than: 256, siblings))
    }
}
