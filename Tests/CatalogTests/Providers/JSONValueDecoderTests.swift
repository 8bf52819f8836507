import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

/// `JSONValueDecoder` against the `JSONDecoder` it replaced in `WireJSON.decode`: for every
/// recorded upstream body and every wire model, the same value, or the same kind of error at
/// the same coding path (what `WireJSON` turns into its `badResponse` reason).
@Suite struct JSONValueDecoderTests {
    /// What a decoder made of a body: the value (as `dump` prints it), an error's kind and
    /// path, or "not JSON at all".
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(kind: String, path: [String])
        case notJSON

        var description: String {
            switch self {
            case .value(let text): "value \(text.prefix(300))"
            case .error(let kind, let path): "\(kind) at \(path)"
            case .notJSON: "not JSON"
            }
        }
    }

    /// `value` as text, dictionaries in key order (their iteration order depends on how they
    /// were built, which is not what is compared).
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?:
            let entries = mirror.children.map { entry -> (String, String) in
                let pair = Array(Mirror(reflecting: entry.value).children)
                return (canonical(pair[0].value), canonical(pair[1].value))
            }
            return "[" + entries.sorted { $0.0 < $1.0 }.map { "\($0): \($1)" }.joined(separator: ", ") + "]"
        case .optional?:
            return mirror.children.first.map { "some(" + canonical($0.value) + ")" } ?? "nil"
        case .struct?, .class?, .tuple?, .enum?, .collection?, .set?:
            let children = mirror.children.map { ($0.label.map { $0 + ": " } ?? "") + canonical($0.value) }
            return "\(type(of: value))(" + children.joined(separator: ", ") + ")"
        default:
            return String(reflecting: value)
        }
    }

    static func outcome(_ decode: () throws -> Any) -> Outcome {
        do {
            return .value(canonical(try decode()))
        } catch is JSONParseError {
            return .notJSON
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            return .notJSON
        } catch let error as DecodingError {
            let (kind, context): (String, DecodingError.Context) =
                switch error {
                case .keyNotFound(let key, let context): ("keyNotFound \(key.stringValue)", context)
                case .typeMismatch(_, let context): ("typeMismatch", context)
                case .valueNotFound(_, let context): ("valueNotFound", context)
                case .dataCorrupted(let context): ("dataCorrupted", context)
                @unknown default: ("unknown", DecodingError.Context(codingPath: [], debugDescription: ""))
                }
            return .error(kind: kind, path: context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
        } catch {
            return .error(kind: "\(error)", path: [])
        }
    }

    /// Both decoders' outcomes for `body` read as `T`: Foundation's first.
    static func both<T: Decodable>(_ type: T.Type) -> @Sendable ([UInt8]) -> (Outcome, Outcome) {
        { body in
            (
                outcome { try JSONDecoder().decode(T.self, from: Data(body)) },
                outcome { try JSONValueDecoder.decode(T.self, from: JSONReader.parse(body)) }
            )
        }
    }

    static let models: [(String, @Sendable ([UInt8]) -> (Outcome, Outcome))] = [
        ("ITunesEnvelope", both(ITunesEnvelope.self)),
        ("AMSearchEnvelope", both(AMSearchEnvelope.self)),
        ("AMDataEnvelope", both(AMDataEnvelope.self)),
        ("AMErrorEnvelope", both(AMErrorEnvelope.self)),
        ("RakutenEnvelope", both(RakutenEnvelope.self)),
        ("RakutenLegacyError", both(RakutenLegacyError.self)),
        ("RakutenError2026", both(RakutenError2026.self)),
        ("TMDBSearchResponse", both(TMDBSearchResponse.self)),
        ("TMDBMovieRecord", both(TMDBMovieRecord.self)),
        ("TMDBVideosResponse", both(TMDBVideosResponse.self)),
        ("TMDBError", both(TMDBError.self)),
        ("YTSearchResponse", both(YTSearchResponse.self)),
        ("YTVideoListResponse", both(YTVideoListResponse.self)),
        ("YTErrorEnvelope", both(YTErrorEnvelope.self)),
    ]

    static let fixtures = [
        "applemusic/catalog-album_id-1616728060_with-tracks_us.json",
        "applemusic/catalog-search_types-songs-albums-artists_us.json",
        "applemusic/error-400-invalid-parameter-value_code-40005.json",
        "applemusic/error-404-no-related-resources_code-40403.json",
        "applemusic/storefronts_limit-2_with-next.json",
        "itunes/lookup-album-tracks_entity-song_2-discs_gb.json",
        "itunes/lookup-album-tracks_entity-song_kpop-ep_us.json",
        "itunes/lookup-album-tracks_entity-song_various-artists-missing-tracks_gb.json",
        "itunes/lookup-artist-albums_entity-album_sort-recent.json",
        "itunes/lookup-artist-by-id.json",
        "itunes/lookup-artist-songs_entity-song_sort-recent_ja-title.json",
        "itunes/lookup-by-upc.json",
        "itunes/lookup-multi-id_entity-album_limit-1.json",
        "itunes/lookup-multi-id_entity-song_limit-1_sort-recent.json",
        "itunes/search_empty-results.json",
        "itunes/search_entity-album_limit-25.json",
        "itunes/search_entity-allArtist_attribute-allArtistTerm_trimmed.json",
        "itunes/search_entity-musicVideo.json",
        "rakuten/bookscd-search_formatVersion-1_artistName-yoasobi.json",
        "rakuten/bookscd-search_formatVersion-2_keyword-ruby.json",
        "rakuten/bookstotal-search_empty.json",
        "rakuten/error-400-wrong-parameter_invalid-applicationId.json",
        "rakuten/error-429-too-many-requests.json",
        "tmdb/error-400-invalid-page_status-22.json",
        "tmdb/error-401-invalid-api-key_status-7.json",
        "tmdb/error-404-not-found_status-34.json",
        "tmdb/error-404-not-found_status-34_wire-order.json",
        "tmdb/search-movie_query-fight-club_page1.json",
        "youtube/error-400-keyInvalid-legacy.json",
        "youtube/error-403-accessNotConfigured.json",
        "youtube/error-403-permission-denied.json",
        "youtube/error-403-quotaExceeded.json",
        "youtube/search-list_part-snippet_regionCode-JP_page1.json",
        "youtube/search-list_part-snippet_regionCode-JP_page2.json",
        "youtube/videos-list_multi-id_part-snippet-contentDetails-statistics_items-trimmed.json",
        "youtube/videos-list_multi-id_part-snippet-player.json",
    ]

    /// Every recorded body as every model: its own provider's (values) and the others' (errors).
    @Test(arguments: fixtures)
    func everyRecordedBodyDecodesAsJSONDecoderDecodesIt(_ name: String) throws {
        let body = try Fixture.bytes(name)
        var decodedSomething = false
        for (model, decode) in Self.models {
            let (foundation, ours) = decode(body)
            #expect(ours == foundation, "\(name) as \(model)")
            if case .value = ours { decodedSomething = true }
        }
        #expect(decodedSomething, "\(name): no model read it")
    }

    /// Every primitive and container path, on small bodies made to hit each rule.
    struct Probe: Decodable {
        var i: Int
        var d: Double
        var s: String
        var b: Bool
        var o: Int?
        var list: [Int]
        var u: UInt8?
        var f: Float?
        var nested: [String: [Int16]]?
        var strings: [String]?
        var flags: [Bool?]?
        var lenient: LenientString?
    }

    /// Bodies where the two decoders differ on purpose (see `JSONValueDecoder`): JSONDecoder's
    /// outcome there, and ours.
    static let divergences: [String: (foundation: Outcome, ours: Outcome)] = [
        #""i": 3.5"#: (.notJSON, .error(kind: "dataCorrupted", path: ["i"])),
        #""i": 9223372036854775808"#: (.notJSON, .error(kind: "dataCorrupted", path: ["i"])),
        #""i": 1, "u": 256"#: (.notJSON, .error(kind: "dataCorrupted", path: ["u"])),
        #""i": 1, "u": -1"#: (.notJSON, .error(kind: "dataCorrupted", path: ["u"])),
        #""i": 1, "nested": {"a": [1, 40000]}"#: (.notJSON, .error(kind: "dataCorrupted", path: ["nested", "a", "1"])),
    ]

    /// `{base, variant}` with the variant's keys in place of the base's.
    static func probe(_ variant: String) -> String {
        let base = [("d", "1.5"), ("s", #""x""#), ("b", "true"), ("list", "[1, 2]")]
        let replaced = base.filter { key, _ in !variant.contains("\"\(key)\":") }
        return "{" + (replaced.map { "\"\($0)\": \($1)" } + [variant]).joined(separator: ", ") + "}"
    }

    static let probes: [String] = {
        let variants = [
            #""i": 3"#, #""i": 3.0"#, #""i": 3.5"#, #""i": 1e2"#, #""i": -0"#, #""i": 9223372036854775807"#,
            #""i": 9223372036854775808"#, #""i": "3""#, #""i": null"#, #""i": true"#, #""i": [3]"#,
            #""i": 1, "d": 2"#, #""i": 1, "d": "2""#, #""i": 1, "u": 255"#, #""i": 1, "u": 256"#, #""i": 1, "u": -1"#,
            #""i": 1, "o": null"#, #""i": 1, "o": "x""#, #""i": 1, "f": 0.1"#,
            #""i": 1, "nested": {"a": [1, 2], "b": []}"#, #""i": 1, "nested": {"a": [1, 40000]}"#,
            #""i": 1, "nested": {"a": {}}"#, #""i": 1, "nested": []"#,
            #""i": 1, "strings": ["a", "é🎵", "\u00e9"]"#, #""i": 1, "strings": ["a", 1]"#,
            #""i": 1, "strings": [null]"#, #""i": 1, "flags": [true, null, false]"#, #""i": 1, "flags": [1]"#,
            #""i": 1, "lenient": "x""#, #""i": 1, "lenient": 12"#, #""i": 1, "lenient": 1.5"#,
            #""i": 1, "lenient": true"#, #""i": 1, "list": [1, null]"#, #""i": 1, "list": {}"#,
            #""i": 1, "extra": {"deep": [[[]]]}"#,
        ]
        return variants.map(probe) + ["[1]", "null", "{}", #"{"i": 1}"#, "", "{", "  ", #""just a string""#]
    }()

    @Test(arguments: probes)
    func primitivesContainersAndErrorsMatchJSONDecoder(_ text: String) {
        let (foundation, ours) = Self.both(Probe.self)(Array(text.utf8))
        if let (expectedFoundation, expectedOurs) = Self.divergences.first(where: { Self.probe($0.key) == text })?.value
        {
            #expect(foundation == expectedFoundation, "\(text)")
            #expect(ours == expectedOurs, "\(text)")
        } else {
            #expect(ours == foundation, "\(text)")
        }
    }

    /// The other two differences: a repeated key keeps its last value (JSONDecoder: the first),
    /// a trailing comma is not JSON (JSONDecoder reads it).
    @Test func repeatedKeysAndTrailingCommasFollowJSONParse() throws {
        let repeated = Array(#"{"i": 1, "d": 1.5, "s": "x", "b": true, "list": [], "i": 2}"#.utf8)
        #expect(try JSONValueDecoder.decode(Probe.self, from: JSONReader.parse(repeated)).i == 2)
        #expect(try JSONDecoder().decode(Probe.self, from: Data(repeated)).i == 1)
        let trailing = Array(#"{"i": 1, "d": 1.5, "s": "x", "b": true, "list": [],}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONReader.parse(trailing) }
        #expect(try JSONDecoder().decode(Probe.self, from: Data(trailing)).i == 1)
    }

    /// The values themselves, not only their agreement with Foundation.
    @Test func readsNumbersAsTheTypesAskedFor() throws {
        let value = try JSONReader.parse(
            Array(#"{"i": 3.0, "d": 2, "s": "é", "b": false, "list": [], "u": 7, "lenient": 12}"#.utf8))
        let probe = try JSONValueDecoder.decode(Probe.self, from: value)
        #expect(probe.i == 3)
        #expect(probe.d == 2.0)
        #expect(probe.s == "é")
        #expect(probe.b == false)
        #expect(probe.o == nil)
        #expect(probe.list.isEmpty)
        #expect(probe.u == 7)
        #expect(probe.lenient?.value == "12")
    }

    /// What `WireJSON.decode` says of a shape it cannot read: the path to the value.
    @Test func aWrongShapeIsABadResponseNamingThePath() {
        let body = Array(#"{"resultCount": 1, "results": [{"trackId": 1}, {"trackId": "two"}]}"#.utf8)
        #expect(throws: UpstreamError.self) {
            try WireJSON.decode(ITunesEnvelope.self, from: body, service: .iTunes, status: 200)
        }
        do throws(UpstreamError) {
            _ = try WireJSON.decode(ITunesEnvelope.self, from: body, service: .iTunes, status: 200)
        } catch {
            #expect(error.kind == .badResponse(reason: "unexpected value at results.1.trackId"))
        }
        let missing = Array(#"{"results": []}"#.utf8)
        do throws(UpstreamError) {
            _ = try WireJSON.decode(ITunesEnvelope.self, from: missing, service: .iTunes, status: 200)
            Issue.record("accepted a body without resultCount")
        } catch {
            #expect(error.kind == .badResponse(reason: "missing resultCount"))
        }
    }
}
