/// Why an SDL document could not become a schema: every problem found, each a `GraphQLError`
/// with the 1-based line/column of the nodes involved (spec §7.1.2 shape).
///
/// The errors come from, in this order of checking (a later stage runs only when the earlier
/// ones found nothing): the parser (one syntax error), the SDL validation rules (graphql-js
/// `specifiedSDLRules`), then schema validation (§3 "Type Validation", graphql-js
/// `validateSchema`) of the built schema.
public struct SchemaBuildError: Error, Sendable, CustomStringConvertible {
    public var errors: [GraphQLError]
    /// The `Source.name` of the SDL, e.g. its file path; used by `description`.
    public var sourceName: String

    public init(errors: [GraphQLError], sourceName: String) {
        self.errors = errors
        self.sourceName = sourceName
    }

    /// One line per error: `NAME:LINE:COLUMN: MESSAGE`, further locations of the same error
    /// appended as ` (also LINE:COLUMN, …)`; `NAME: MESSAGE` for an error without location.
    public var description: String {
        errors.map { error in
            guard let first = error.locations.first else { return "\(sourceName): \(error.message)" }
            var line = "\(sourceName):\(first.line):\(first.column): \(error.message)"
            let others = error.locations.dropFirst()
            if !others.isEmpty {
                line += " (also " + others.map { "\($0.line):\($0.column)" }.joined(separator: ", ") + ")"
            }
            return line
        }.joined(separator: "\n")
    }
}
