import Foundation
import GraphQL
import Testing

@testable import Catalog

@Suite struct GatewaySchemaTests {
    /// The repository's schema.graphql, found from this file's path (Tests/CatalogTests/Gateway).
    static func repositorySchemaText() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let data = try #require(
            FileManager.default.contents(atPath: root.appendingPathComponent("schema.graphql").path))
        return String(decoding: data, as: UTF8.self)
    }

    @Test func embeddedCopyMatchesTheFile() throws {
        // Run `make schema` (scripts/embed-schema.sh) after editing schema.graphql.
        #expect(GatewaySchema.sdl == (try Self.repositorySchemaText()))
    }

    @Test func everyTypeFieldAndArgumentIsDescribedAndBound() throws {
        let schema = try GatewaySchema.embedded()
        var undescribed: [String] = []
        for name in schema.typeNames where !name.hasPrefix("__") && !ScalarType.specifiedNames.contains(name) {
            let type = try #require(schema.types[name])
            if type.description == nil { undescribed.append(name) }
            for field in type.fields {
                if field.description == nil { undescribed.append("\(name).\(field.name)") }
                for argument in field.arguments where argument.description == nil {
                    undescribed.append("\(name).\(field.name)(\(argument.name))")
                }
            }
        }
        #expect(undescribed == [])
        // Every field is resolved in Swift, a property, or a TMDB connector the schema declares.
        let declarations = try GatewaySchema.declarations(of: schema, source: nil, environment: [:])
        #expect(declarations.upstreams.keys.sorted() == ["tmdb"])
        #expect(declarations.upstreams["tmdb"]?.service == .tmdb)
        #expect(declarations.connectors.keys.sorted() == ["Movie.videos", "Query.movies"])
        #expect(declarations.lookups.keys.sorted() == ["Movie"])
        #expect(
            schema.typeNames.filter { !$0.hasPrefix("__") }.sorted() == [
                "Album", "Artist", "Batch", "Boolean", "CatalogSource", "Float", "ID", "Int", "KeyValue", "Movie",
                "Node",
                "Query", "String", "Track", "Video", "VideoDuration", "VideoSource",
            ])
    }

    @Test func aFieldWithoutResolverStopsTheGateway() throws {
        let sdl = GatewaySchema.sdl + "\nextend type Artist { age: Int }\nextend type Query { charts: [Album!] }\n"
        let source = Source(bytes: Array(sdl.utf8), name: "s.graphql")
        let schema = try buildSchema(source: source)
        let lines = sdl.split(separator: "\n", omittingEmptySubsequences: false)
        let ageLine = try #require(lines.firstIndex { $0.contains("age: Int") }) + 1
        do {
            _ = try Gateway(configuration: GatewayConfiguration(), schema: schema, schemaSource: source)
            Issue.record("the gateway started without resolvers for Artist.age and Query.charts")
        } catch {
            guard case .declarations(let problems) = error else { throw error }
            #expect(
                problems.map(\.description) == [
                    "s.graphql:\(ageLine):22: Artist.age has no resolver: declare it with @http, or resolve it in Swift",
                    "s.graphql:\(ageLine + 1):21: Query.charts has no resolver: declare it with @http, or resolve it in Swift",
                ])
        }
        // Without the source, each problem names its field.
        #expect(throws: GatewayStartError.self) { try Gateway(configuration: GatewayConfiguration(), schema: schema) }
    }

    @Test func configurationFromEnvironment() throws {
        let configuration = try GatewayConfiguration.fromEnvironment(
            [
                "YOUTUBE_API_KEY": "y", "TMDB_API_KEY": "", "MUSICGRAPH_UPSTREAM_URL": "http://all",
                "MUSICGRAPH_TMDB_URL": "http://tmdb", "MUSICGRAPH_MAX_QUERY_COST": "500",
            ], upstream: "http://flag")
        #expect(configuration.youTubeAPIKey == "y")
        #expect(configuration.tmdbAPIKey == nil)
        #expect(configuration.baseURLs[.iTunes] == "http://flag")
        #expect(configuration.baseURLs[.tmdb] == "http://tmdb")
        #expect(configuration.maxQueryCost == 500)
        #expect(throws: GatewayConfigurationError.self) {
            try GatewayConfiguration.fromEnvironment(["MUSICGRAPH_MAX_QUERY_COST": "lots"])
        }
    }
}
