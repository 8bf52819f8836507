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
        #expect(CatalogResolvers.unboundFields(in: schema) == [])
        #expect(
            schema.typeNames.filter { !$0.hasPrefix("__") }.sorted() == [
                "Album", "Artist", "Boolean", "CatalogSource", "Float", "ID", "Int", "Movie", "Node", "Query", "String",
                "Track",
                "Video", "VideoDuration", "VideoSource",
            ])
    }

    @Test func aFieldWithoutResolverStopsTheGateway() throws {
        let sdl = GatewaySchema.sdl + "\nextend type Artist { age: Int }\nextend type Query { charts: [Album!] }\n"
        let schema = try buildSchema(sdl: sdl)
        #expect(CatalogResolvers.unboundFields(in: schema) == ["Artist.age", "Query.charts"])
        #expect(throws: GatewayStartError.self) { try Gateway(configuration: GatewayConfiguration(), schema: schema) }
        do {
            _ = try Gateway(configuration: GatewayConfiguration(), schema: schema)
        } catch {
            #expect(error.description == "schema fields without a resolver: Artist.age, Query.charts")
        }
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
