/// Parses a GraphQL document (spec §2 and §3 grammar). Placeholder: the real parser lands
/// with the language issue.
///
/// - Throws: `GraphQLError` with a `Syntax Error: …` message and the location of the first
///   offending token.
public func parse(_ source: Source, options: ParseOptions = ParseOptions()) throws(GraphQLError) -> Document {
  throw GraphQLError("Syntax Error: parser not implemented yet.")
}
