/// The kinds of lexical token (spec §2.1.6 "Lexical Tokens"), plus the start and end
/// markers the parser uses.
///
/// `description` is graphql-js's spelling of each kind (`"{"`, `"Name"`, `"<EOF>"`),
/// which syntax error messages quote.
enum TokenKind: UInt8, Sendable, CustomStringConvertible {
    /// Start of input, before the first token.
    case sof
    /// End of input.
    case eof
    /// `!`
    case bang
    /// `$`
    case dollar
    /// `&`
    case amp
    /// `(`
    case parenL
    /// `)`
    case parenR
    /// `...`
    case spread
    /// `:`
    case colon
    /// `=`
    case equals
    /// `@`
    case at
    /// `[`
    case bracketL
    /// `]`
    case bracketR
    /// `{`
    case braceL
    /// `|`
    case pipe
    /// `}`
    case braceR
    /// `Name` (§2.1.9)
    case name
    /// `IntValue` (§2.9.1)
    case int
    /// `FloatValue` (§2.9.2)
    case float
    /// `StringValue` with `"` quotes (§2.9.4)
    case string
    /// `StringValue` with `"""` quotes (§2.9.4)
    case blockString

    var description: String {
        switch self {
        case .sof: "<SOF>"
        case .eof: "<EOF>"
        case .bang: "!"
        case .dollar: "$"
        case .amp: "&"
        case .parenL: "("
        case .parenR: ")"
        case .spread: "..."
        case .colon: ":"
        case .equals: "="
        case .at: "@"
        case .bracketL: "["
        case .bracketR: "]"
        case .braceL: "{"
        case .pipe: "|"
        case .braceR: "}"
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    /// True for the punctuators of §2.1.8, which messages put in quotes (`Expected "{"`).
    var isPunctuator: Bool {
        switch self {
        case .bang, .dollar, .amp, .parenL, .parenR, .spread, .colon, .equals, .at, .bracketL,
            .bracketR, .braceL, .pipe, .braceR:
            true
        case .sof, .eof, .name, .int, .float, .string, .blockString:
            false
        }
    }

    /// How syntax errors name this kind: punctuators quoted (`"{"`), others bare (`Name`).
    var quotedDescription: String {
        isPunctuator ? "\"\(description)\"" : description
    }
}
