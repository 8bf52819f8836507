import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

/// A built-in API declared in the schema (TMDB in `schema.graphql`): named transforms, a
/// lookup on one of the gateway's own types, bounded slicing, and the gateway's configuration
/// winning over what the schema writes.
@Suite struct DeclaredBuiltInTests {
    /// `GatewaySchema.sdl` with `extra` appended, as a file named `s.graphql`.
    static func declarations(_ extra: String, environment: [String: String] = [:]) throws -> Result<
        ConnectorSchema, GatewayStartError
    > {
        let source = Source(bytes: Array((GatewaySchema.sdl + extra).utf8), name: "s.graphql")
        let schema = try buildSchema(source: source)
        do throws(GatewayStartError) {
            return .success(try GatewaySchema.declarations(of: schema, source: source, environment: environment))
        } catch {
            return .failure(error)
        }
    }

    @Test func theSchemasTMDBCallsAreConnectorsWithTransforms() throws {
        let connectors = try Self.declarations("").get()
        let movies = try #require(connectors.connectors["Query.movies"])
        #expect(movies.transform?.name == "tmdb.searchMovies")
        #expect(movies.slicing?.argument == "first" && movies.slicing?.range == 1...20)
        #expect(connectors.connectors["Movie.videos"]?.transform?.name == "tmdb.movieVideos")
        #expect(connectors.connectors["Movie.videos"]?.slicing?.range == 1...50)
        #expect(connectors.lookups["Movie"]?.transform?.name == "tmdb.movie")
        // The key goes last, after the field's own entries, as TMDB's documentation writes it.
        let call = try #require(
            movies.call(
                TemplateValues(
                    arguments: JSONObject([("query", .string("Beyonce\u{301}"))]), parent: .null, environment: [:])))
        #expect(
            movies.url(call, environment: ["TMDB_API_KEY": "k1"])
                == "https://api.themoviedb.org/3/search/movie?query=Beyonc%C3%A9&include_adult=false&language=en-US&page=1&api_key=k1"
        )
        // Without the key in the environment the fields say so, and nothing is sent.
        #expect(connectors.upstreams["tmdb"]?.missingEnvironment == ["TMDB_API_KEY"])
    }

    @Test func aParentsIdIsItsUpstreamIdNotTheGlobalOne() throws {
        let videos = try #require(try Self.declarations("").get().connectors["Movie.videos"])
        let movie = FieldValue.object(MovieNode(movie: Movie(id: "550", title: "Fight Club")))
        let call = try #require(
            videos.call(TemplateValues(arguments: JSONObject([("first", .int(3))]), parent: movie, environment: [:])))
        #expect(call.relative == "/3/movie/550/videos?language=en-US")
    }

    @Test func theConfiguredKeyAndBaseURLWinOverTheDeclaredOnes() throws {
        var configuration = GatewayConfiguration(baseURLs: [.tmdb: "http://127.0.0.1:9/"], tmdbAPIKey: "configured")
        configuration.environment = ["TMDB_API_KEY": "from-environment"]
        let gateway = try Gateway(configuration: configuration)
        let upstream = try #require(gateway.connectors.upstreams["tmdb"])
        #expect(upstream.baseURL == "http://127.0.0.1:9")
        #expect(upstream.missingEnvironment == [])
        #expect(gateway.connectors.environment["TMDB_API_KEY"] == "configured")
        #expect(gateway.connectors.secrets == ["configured"])
        // TMDB keeps its built-in traits, with the declared price.
        #expect(gateway.ledger.traits[.tmdb].unitsPerCall == 1)
        #expect(gateway.ledger.traits[.tmdb].pathWords.isSuperset(of: ["3", "search", "movie", "videos"]))
    }

    @Test func clientsDoNotSeeTheConnectorDefinitions() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration())
        #expect(
            gateway.schema.typeNames.filter { !$0.hasPrefix("__") }.sorted() == [
                "Album", "Artist", "Boolean", "CatalogSource", "Float", "ID", "Int", "Movie", "Node", "Query", "String",
                "Track", "Video", "VideoDuration", "VideoSource",
            ])
        #expect(gateway.schema.types["KeyValue"] == nil && gateway.schema.types["Batch"] == nil)
        // The built-in scalars where the schema's own types put them (graphql-js's type map
        // order), not where the removed input types did.
        #expect(Array(gateway.schema.typeNames.prefix(5)) == ["Query", "String", "ID", "Int", "Node"])
        #expect(!gateway.schema.directives.contains { ["upstream", "http", "from"].contains($0.name) })
        #expect(gateway.schema.directives.contains { $0.name == "cost" })
    }

    @Test func aNullSlicingArgumentCutsAtItsDefault() throws {
        let connectors = try Self.declarations("").get()
        #expect(connectors.connectors["Query.movies"]?.slicing?.defaultValue == 10)
        #expect(connectors.connectors["Movie.videos"]?.slicing?.defaultValue == 3)
    }

    @Test func aConfiguredTTLOrQuotaOfABuiltInAPIWins() throws {
        var configuration = GatewayConfiguration()
        configuration.cacheTTLSeconds[.tmdb] = nil  // `--cache-ttl tmdb=0`: not cached
        configuration.dailyQuota[.tmdb] = 7
        let extra = """

            extend schema @upstream(name: "mine", baseURL: "http://127.0.0.1:9", maxAgeSeconds: 42)

            """
        let source = Source(bytes: Array((GatewaySchema.sdl + extra).utf8), name: "s.graphql")
        let gateway = try Gateway(configuration: configuration, schema: try buildSchema(source: source))
        let tmdb = try #require(gateway.connectors.upstreams["tmdb"])
        #expect(tmdb.maxAgeSeconds == 3_600)  // what the schema writes…
        #expect(gateway.configuration.ttlSeconds(of: tmdb) == 0)  // …and what the configuration says
        #expect(gateway.configuration.ttlSeconds(of: try #require(gateway.connectors.upstreams["mine"])) == 42)
        #expect(gateway.configuration.dailyQuota[.tmdb] == 7)
    }

    @Test func everyTransformHasItsOwnDecodedValuesKey() {
        #expect(ConnectorTransform.named.count == 3)
        // A transform's definition position keys its decoded values: no two may share one.
        let positions = Set(ConnectorTransform.named.values.map { "\($0.fileID):\($0.line)" })
        #expect(positions.count == ConnectorTransform.named.count)
    }

    @Test func transformsLookupsAndPageSizesAreChecked() throws {
        let extra = """

            type Ref { id: ID! }
            type Ref2 @http(upstream: "tmdb", path: "/3/ref/{$args.id}") { id: ID! }
            extend schema @upstream(name: "mine", baseURL: "http://127.0.0.1:9")
            extend type Album @http(upstream: "mine", path: "/albums/{$args.id}", transform: "tmdb.movie")
            extend type Query @http(upstream: "tmdb", path: "/q/{$args.id}")
            extend type Query {
              a: [Movie!] @http(upstream: "tmdb", path: "/3/a", transform: "tmdb.nope")
              b: [Movie!] @http(upstream: "tmdb", path: "/3/b")
              c(first: Int): [Ref!] @http(upstream: "tmdb", path: "/3/c", pageSize: 5)
              d(first: Int): [Ref!] @http(upstream: "tmdb", path: "/3/d", pageSize: 0) @listSize(slicingArguments: ["first"])
              e: [Video!] @http(upstream: "tmdb", path: "/3/e", transform: "tmdb.searchMovies", select: "results")
            }
            extend type Video {
              more: Ref @http(upstream: "tmdb", path: "/3/m", query: [{ name: "ids", value: "{$parent.id}" }], transform: "tmdb.movie", batch: { param: "ids", max: 5, key: "id" })
            }

            """
        guard case .failure(.declarations(let problems)) = try Self.declarations(extra) else {
            Issue.record("the broken declarations were accepted")
            return
        }
        let lines = (GatewaySchema.sdl + extra).split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ text: String) throws -> Int { try #require(lines.firstIndex { $0.contains(text) }) + 1 }
        let messages = problems.map(\.description)
        let expected: [(line: String, says: String)] = [
            ("type Ref2", "declared JSON"),
            ("a: [Movie!]", "names transform 'tmdb.nope', which the gateway does not have"),
            ("b: [Movie!]", "returns Movie, one of the gateway's own types"),
            ("c(first: Int)", "no @listSize(slicingArguments:)"),
            ("d(first: Int)", "pageSize must be at least 1"),
            ("more: Ref", "a transform reads one answer"),
            ("extend type Album", "global ids name only the built-in upstreams"),
            ("extend type Album", "transform 'tmdb.movie' makes Movie, not the field's Album"),
            ("extend type Query @http", "`node` reads only types global ids name"),
            ("e: [Video!]", "transform 'tmdb.searchMovies' makes [Movie], not the field's [Video!]"),
            ("e: [Video!]", "select does not apply with it"),
        ]
        for (text, says) in expected {
            let at = "s.graphql:\(try line(text)):"
            #expect(messages.contains { $0.hasPrefix(at) && $0.contains(says) }, "\(at) \(says): \(messages)")
        }
        #expect(problems.count == 12, "\(messages)")
    }
}

extension LoopbackTests {
    /// The declared TMDB fields over real HTTP to DemoUpstream.
    @Suite struct DeclaredTMDB {
        @Test func aNullFirstCutsAtTheDefaultAndShareTheOneSearch() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ a: movies(query: "The Story", first: null) { id } b: movies(query: "The Story", first: 20) { id } }"#
                )
                #expect(response.result.errors == [])
                guard case .array(let nullCut)? = response.result.data?["a"],
                    case .array(let whole)? = response.result.data?["b"]
                else {
                    Issue.record("no movies: \(String(describing: response.result.data))")
                    return
                }
                #expect(nullCut.count == 10)  // `first: Int = 10`, as the Swift resolver cut
                #expect(whole.count == 20)
                #expect(Array(whole.prefix(10)) == nullCut)
                // One request answers both cuts: `first` is not part of it.
                let log = try await h.loopback.requestLog().entries
                #expect(log.map(\.path) == ["/3/search/movie"])
            }
        }
    }
}

extension DeclaredBuiltInTests {
    /// `--demo` and `--replay` set placeholder keys: they are no secrets, so they must not mask
    /// a search term in the shared store's keys.
    @Test func placeholderKeysAreNoSecrets() throws {
        let gateway = try Gateway(configuration: GatewayConfiguration(tmdbAPIKey: "demo"))
        #expect(gateway.connectors.environment["TMDB_API_KEY"] == "demo")
        #expect(gateway.connectors.secrets == [])
        #expect(gateway.connectors.upstreams["tmdb"]?.missingEnvironment == [])
    }
}
