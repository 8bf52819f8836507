import GraphQL
import UpstreamEconomy

/// A named Swift decoder behind `@http(transform:)`, for an answer whose shape a declaration
/// cannot say: it reads the status, headers and body of the call and makes the field's value,
/// one of the gateway's own objects included. Everything else about the call stays declared
/// (upstream, path, query, price, batching limits, the economy it goes through).
///
/// Invariant: a transform reads every status itself (a 404 included: some APIs mean "none" by
/// it), and throws `UpstreamError` for an answer it cannot read, never inventing a value.
struct ConnectorTransform: Sendable {
    typealias Decode =
        @Sendable (_ status: Int, _ headers: [String: String], _ body: [UInt8]) throws(UpstreamError)
        -> FieldValue

    let name: String
    /// The schema type the transform makes, and whether it makes a list of it: the field
    /// that names the transform must return that (checked at start-up).
    let returns: String
    let isList: Bool
    let decode: Decode
    /// Where the transform is defined: with `line`, the key of its decoded values in the
    /// response cache (`UpstreamCall.fetch`), one per transform.
    let fileID: StaticString
    let line: UInt

    init(
        _ name: String, returns: String, isList: Bool, fileID: StaticString = #fileID, line: UInt = #line,
        decode: @escaping Decode
    ) {
        self.name = name
        self.returns = returns
        self.isList = isList
        self.decode = decode
        self.fileID = fileID
        self.line = line
    }

    /// The transforms a schema may name, by name. Each is defined on a line of its own: that
    /// position keys its decoded values, so two transforms must never share one.
    static let named: [String: ConnectorTransform] = Dictionary(
        uniqueKeysWithValues: TMDBTransforms.all.map { ($0.name, $0) })

}
