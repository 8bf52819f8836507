import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

/// What a trace's `url.template` keeps of a declared call's path: the literal segments its
/// connectors declare; a segment a template fills (an id, a user's string) is `{id}`.
@Suite struct ConnectorPathWordsTests {
    @Test func literalSegmentsAreKeptAndFilledOnesAreNot() throws {
        let declarations = """
            extend schema @upstream(name: "releases", baseURL: "http://127.0.0.1:9")
            extend type Query {
              release(id: ID!): Release @http(upstream: "releases", path: "/ws/release/{$args.id}")
              byLabel(label: String!): Release @http(upstream: "releases", path: "/ws/label-{$args.label}/top")
            }
            type Release { id: ID! }

            """
        // The gateway's schema defines the connector directives itself.
        let sdl = GatewaySchema.sdl + declarations
        let schema = try buildSchema(sdl: sdl)
        let connectors = try GatewaySchema.declarations(of: schema, source: nil, environment: [:])
        let words = connectors.pathWords(of: UpstreamService(rawValue: "releases"))
        #expect(words == ["ws", "release", "top"])
        #expect(
            URLTemplate.of("http://127.0.0.1:9/ws/release/r5?q=x", fixed: words).template
                == "http://127.0.0.1:9/ws/release/{id}")
        #expect(
            URLTemplate.of("http://127.0.0.1:9/ws/label-Secret%20Name/top", fixed: words).template
                == "http://127.0.0.1:9/ws/{id}/top")
    }
}
