extension GraphQLError {
    /// The error's response form (spec §7.1.2): `message`, then `locations`, `path` and
    /// `extensions` when present, in the key order graphql-js's `toJSON()` uses.
    public var json: JSONValue {
        var object = JSONObject([("message", .string(message))])
        if !locations.isEmpty {
            object["locations"] = .array(
                locations.map { .object(JSONObject([("line", .int($0.line)), ("column", .int($0.column))])) })
        }
        if let path {
            object["path"] = .array(
                path.map {
                    switch $0 {
                    case .key(let k): .string(k)
                    case .index(let i): .int(i)
                    }
                })
        }
        if extensions.count > 0 { object["extensions"] = .object(extensions) }
        return .object(object)
    }
}
