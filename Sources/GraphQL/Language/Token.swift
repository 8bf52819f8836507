/// One lexical token (spec §2.1.6): its kind and where it sits in the source.
///
/// A token is only its kind and byte range (`start..<end` in `Source.utf8`), a plain
/// value with no reference counting: the parser makes a `String` from the range when the
/// AST needs one. The cooked value of a string token (escapes resolved, block strings
/// through BlockStringValue()) is `Lexer.tokenValue`, kept beside the current token.
struct Token: Sendable {
    var kind: TokenKind
    /// Byte offset of the token's first byte.
    var start: Int
    /// Byte offset just past the token's last byte.
    var end: Int
}
