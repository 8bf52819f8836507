import GraphQL
import UpstreamEconomy

/// The schema's `CatalogSource` enum: the catalogs artists and albums can come from.
enum CatalogSource: String, Sendable {
    case iTunes = "ITUNES"
    case appleMusic = "APPLE_MUSIC"
    case rakuten = "RAKUTEN"

    init?(service: UpstreamService) {
        switch service {
        case .iTunes: self = .iTunes
        case .appleMusic: self = .appleMusic
        case .rakuten: self = .rakuten
        default: return nil
        }
    }
}

extension UpstreamError: GraphQLErrorConvertible {
    /// The field error form: message = `description`, `extensions` = `code`, `service`, …
    public var graphQLError: GraphQLError { graphQLError(path: nil) }
}
