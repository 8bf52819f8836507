import Catalog
import GraphQL

/// The gateway's schema (schema.graphql as embedded at build time), built once per process.
public let gatewaySchema: Schema = {
    do {
        return try buildSchema(sdl: GatewaySchema.sdl)
    } catch {
        fatalError("schema.graphql does not build: \(error)")
    }
}()
