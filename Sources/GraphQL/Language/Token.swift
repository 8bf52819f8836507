/// One lexical token (spec §2.1.6): its kind and where it sits in the source.
///
/// Names and numbers keep only their byte range (`start..<end` in `Source.utf8`); the
/// parser makes a `String` from it when the AST needs one. String tokens carry their
/// cooked `value` (escapes resolved, block strings through `blockStringValue`), because
/// that is not a slice of the source.
struct Token: Sendable {
  var kind: TokenKind
  /// Byte offset of the token's first byte.
  var start: Int
  /// Byte offset just past the token's last byte.
  var end: Int
  /// The cooked value of a `.string` or `.blockString` token; nil for every other kind.
  var value: String?

  init(kind: TokenKind, start: Int, end: Int, value: String? = nil) {
    self.kind = kind
    self.start = start
    self.end = end
    self.value = value
  }
}
