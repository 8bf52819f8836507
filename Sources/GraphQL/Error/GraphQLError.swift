/// One entry of a response's `errors` list (spec §7.1.2 "Errors").
///
/// `message` is for humans; `locations` are the 1-based line/column of the nodes the error
/// is about; `path` names the response field (keys and list indices) for field errors and
/// is nil for request errors; `extensions` carries machine-readable details such as
/// `rule` (validation) or `code` and `service` (upstream failures).
public struct GraphQLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var locations: [SourceLocation]
    public var path: [PathComponent]?
    public var extensions: JSONObject

    public init(
        _ message: String, locations: [SourceLocation] = [], path: [PathComponent]? = nil,
        extensions: JSONObject = JSONObject()
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// An error about `nodes` of `source`: their locations are computed from byte offsets.
    public init(
        _ message: String, at nodes: [Location], in source: Source, path: [PathComponent]? = nil,
        extensions: JSONObject = JSONObject()
    ) {
        self.init(
            message, locations: nodes.filter { $0.start >= 0 }.map { source.location(of: $0.start) },
            path: path, extensions: extensions)
    }

    public var description: String {
        guard let first = locations.first else { return message }
        return "\(message) (\(first.line):\(first.column))"
    }
}

/// One step of a response path (§7.1.2): a response key or a list index.
public enum PathComponent: Hashable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let k): k
        case .index(let i): String(i)
        }
    }
}
