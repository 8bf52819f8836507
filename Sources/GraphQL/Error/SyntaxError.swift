/// A syntax error found while lexing or parsing, before it becomes a `GraphQLError`.
///
/// The lexer and parser throw this small value (a byte offset and graphql-js's wording
/// without the `Syntax Error: ` prefix) so the hot paths carry no error arrays;
/// `syntaxError(source:position:description:)` turns it into the response form.
struct SyntaxError: Error, Sendable, Equatable {
    /// Byte offset into `Source.utf8` of the offending character or token.
    var position: Int
    /// What went wrong, e.g. `Expected Name, found "}".`
    var description: String
}

/// A `GraphQLError` for a syntax error (spec §7.1.2): message `Syntax Error: <description>`,
/// one location, the 1-based line and column of byte `position` of `source`.
func syntaxError(source: Source, position: Int, description: String) -> GraphQLError {
    GraphQLError("Syntax Error: " + description, locations: [source.location(of: position)])
}
