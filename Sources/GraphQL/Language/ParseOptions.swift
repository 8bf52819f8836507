/// Limits applied while parsing, so hostile documents fail fast with a syntax error
/// instead of burning CPU or stack: parsing runs before validation, on text from strangers.
public struct ParseOptions: Sendable {
    /// Maximum number of tokens (punctuators, names, numbers, strings; not ignored tokens).
    /// `nil` means no limit. The server uses 15,000, graphql-js's recommended figure.
    public var maxTokens: Int?
    /// Maximum nesting depth of selection sets, list/object values and type references.
    /// Bounds the parser's recursion; `ParseOptions.defaultMaxDepth` by default.
    public var maxDepth: Int

    /// 500, as apollo-parser's recursion limit: far above real documents, far below the stack.
    public static let defaultMaxDepth = 500
    /// The server's token limit.
    public static let serverMaxTokens = 15_000

    public init(maxTokens: Int? = nil, maxDepth: Int = ParseOptions.defaultMaxDepth) {
        self.maxTokens = maxTokens
        self.maxDepth = maxDepth
    }
}
