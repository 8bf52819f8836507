/// Validates an executable document against a schema: spec §5 "Validation" (graphql-js
/// `validate`), https://spec.graphql.org/September2025/#sec-Validation
///
/// All rules run in one traversal of the document, with type information tracked along
/// the way. The document may also hold type system definitions: ExecutableDefinitions
/// reports them, and the directive, type-name and value rules check them as graphql-js
/// does.
///
/// - Parameters:
///   - schema: the schema to validate against (assumed valid).
///   - document: the parsed document.
///   - source: the text `document` was parsed from; error locations are computed in it.
///   - rules: the rules to apply, in reporting order; `specifiedRules` by default.
///   - maxErrors: after this many errors validation stops and one more error, "Too many
///     validation errors, error limit reached. Validation aborted.", ends the list
///     (graphql-js's guard against documents built to produce endless errors).
/// - Returns: the errors in graphql-js order, each with `locations` and
///   `extensions.rule`; empty when the document is valid.
public func validate(
    schema: Schema, document: Document, source: Source, rules: [ValidationRule] = specifiedRules,
    maxErrors: Int = 100
) -> [GraphQLError] {
    let context = ValidationContext(schema: schema, document: document, source: source, maxErrors: maxErrors)
    let visitors = rules.map { $0.makeVisitor(context) }
    ValidationWalker(context: context, visitors: visitors).walk(document)
    return context.finalErrors()
}
