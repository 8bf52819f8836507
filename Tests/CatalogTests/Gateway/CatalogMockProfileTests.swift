import GraphQL
import GraphQLMocks
import Testing
import UpstreamEconomy

@testable import Catalog

/// The gateway answering from mocks (`--mock`): ids are global ids of the provider each
/// object would come from, in that provider's format, consistent with the fields around
/// them; refused ids are refused as the real resolvers refuse them; nothing goes upstream.
@Suite struct CatalogMockProfileTests {
    static func gateway(seed: UInt64 = 7, values: MockValues = MockValues()) throws -> Gateway {
        let schema = try GatewaySchema.embedded()
        let engine = MockEngine(schema: schema, seed: seed, values: values, profile: CatalogMockProfile())
        // Base URLs nobody listens on: any upstream call would fail the answer.
        var configuration = GatewayConfiguration()
        for service in UpstreamService.builtIn { configuration.baseURLs[service] = "http://127.0.0.1:9" }
        return try Gateway(configuration: configuration, schema: schema, resolvers: MockResolvers(engine: engine))
    }

    static func answer(_ gateway: Gateway, _ query: String) async throws -> GatewayResponse {
        guard case .success(let prepared) = gateway.prepare(query) else {
            throw CLIProblem("the query does not validate: \(query)")
        }
        return await gateway.execute(prepared: prepared, operationName: nil, variables: JSONObject())
    }

    struct CLIProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Every string under an `id` key, with the object type `__typename` names beside it.
    static func ids(_ value: JSONValue, into found: inout [(type: String, id: String)]) {
        switch value {
        case .object(let object):
            if case .string(let id)? = object["id"], case .string(let type)? = object["__typename"] {
                found.append((type, id))
            }
            for (_, inner) in object.entries { ids(inner, into: &found) }
        case .array(let items): for item in items { ids(item, into: &found) }
        default: break
        }
    }

    @Test func everyIdIsAGlobalIdThatTheGatewayWouldAccept() async throws {
        let gateway = try Self.gateway()
        let response = try await Self.answer(
            gateway,
            """
            {
              itunes: artists(name: "x", first: 3) { __typename id albums(first: 2) { __typename id source
                tracks { __typename id videos(first: 2) { __typename id url } itunesVideos: videos(source: ITUNES) { __typename id } } } }
              apple: albums(term: "x", first: 3, source: APPLE_MUSIC) { __typename id source tracks { __typename id } artist { __typename id } }
              rakuten: albums(term: "x", first: 3, source: RAKUTEN) { __typename id source tracks { __typename id trackNumber } artist { __typename id name } }
              videos(query: "x", first: 3) { __typename id url thumbnailUrl }
              movies(query: "x", first: 3) { __typename id videos { __typename id url } }
            }
            """)
        #expect(response.result.errors.isEmpty)
        #expect(response.counts.totalRequests == 0)
        var found: [(type: String, id: String)] = []
        Self.ids(response.result.json, into: &found)
        #expect(found.count > 100)
        let kinds: [String: GlobalID.Kind] = [
            "Artist": .artist, "Album": .album, "Track": .track, "Video": .video, "Movie": .movie,
        ]
        for (type, id) in found {
            let gid = try #require(GlobalID(id), "\(id) is not a global id")
            #expect(gid.kind == kinds[type], "\(id) on a \(type)")
            #expect(gid.upstreamIdProblem == nil, "\(id)")
            #expect(NodeFetch.refusal(gid) == nil || (gid.service == .tmdb && gid.kind == .video), "\(id)")
        }
        let json = response.result.json
        guard case .object(let data)? = json.objectValue?["data"], case .array(let rakuten)? = data["rakuten"],
            case .object(let album) = rakuten[0], case .string(let albumID)? = album["id"],
            case .array(let tracks)? = album["tracks"], case .object(let firstTrack) = tracks[0],
            case .object(let artist)? = album["artist"]
        else {
            Issue.record("unexpected answer \(json)")
            return
        }
        let jan = String(albumID.dropFirst("rakuten:album:".count))
        #expect(jan.count == 13 && jan.hasPrefix("49"))
        #expect(firstTrack["id"] == .string("rakuten:track:\(jan)-1"))
        #expect(firstTrack["trackNumber"] == .int(1))
        #expect(album["source"] == .string("RAKUTEN"))
        guard case .string(let name)? = artist["name"] else { return }
        #expect(artist["id"] == .string("rakuten:artist:\(name)"))
    }

    @Test func nodeAnswersTheTypeItsIdNamesAndRefusesWhatTheGatewayRefuses() async throws {
        let gateway = try Self.gateway()
        let response = try await Self.answer(
            gateway,
            """
            {
              album: node(id: "applemusic:album:1440857781") { __typename id ... on Album { source } }
              movie: node(id: "tmdb:movie:550") { __typename id }
              trailer: node(id: "tmdb:video:abc") { id }
              nothing: node(id: "tmdb:album:1") { id }
              malformed: album(id: "itunes:album:x1") { id }
              wrongKind: album(id: "itunes:track:1") { id }
            }
            """)
        let json = response.result.json
        guard case .object(let data)? = json.objectValue?["data"] else {
            Issue.record("no data in \(json)")
            return
        }
        #expect(
            data["album"]
                == .object(
                    JSONObject([
                        ("__typename", .string("Album")), ("id", .string("applemusic:album:1440857781")),
                        ("source", .string("APPLE_MUSIC")),
                    ])))
        #expect(
            data["movie"]
                == .object(JSONObject([("__typename", .string("Movie")), ("id", .string("tmdb:movie:550"))])))
        let codes = Dictionary(
            response.result.errors.map { error in
                (error.path?.first?.description ?? "", error.extensions["code"] ?? .null)
            }, uniquingKeysWith: { first, _ in first })
        #expect(codes["trailer"] == .string("UNSUPPORTED"))
        #expect(codes["nothing"] == .string("BAD_USER_INPUT"))
        #expect(codes["malformed"] == .string("BAD_USER_INPUT"))
        #expect(codes["wrongKind"] == .string("BAD_USER_INPUT"))
    }

    @Test func theCostLimitStillRefusesWhatProductionRefuses() async throws {
        let gateway = try Self.gateway()
        let response = try await Self.answer(
            gateway,
            "{ artists(name: \"x\", first: 50) { albums(first: 200) { tracks { videos(first: 50) { id } } } } }")
        #expect(response.refused)
        #expect(response.result.errors.first?.extensions["code"] == .string("QUERY_COST_EXCEEDED"))
    }

    @Test func theSameSeedGivesTheSameBytes() async throws {
        let query = "{ artist(name: \"AC/DC\") { id name albums(first: 2) { id title tracks { title durationMs } } } }"
        let first = try await Self.answer(try Self.gateway(seed: 7), query).serialized()
        let again = try await Self.answer(try Self.gateway(seed: 7), query).serialized()
        let other = try await Self.answer(try Self.gateway(seed: 8), query).serialized()
        #expect(first == again)
        #expect(first != other)
    }
}

extension JSONValue {
    fileprivate var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}
