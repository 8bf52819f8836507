/// One finding of `musicgraph validate` about a set of documents: how bad it is, the rule
/// that found it, its message, and where (file, line and column; the first position is the
/// one an editor or a CI annotation jumps to, the others are related places, possibly in
/// other files).
struct Diagnostic: Hashable {
    enum Severity: String {
        case error, warning
    }

    /// A 1-based line and column (Unicode scalar values, as GraphQL locations, spec §2.1)
    /// in the file named `file`, as the user named it (the argument, or the argument's
    /// directory joined with the path below it).
    struct Position: Hashable {
        var file: String
        var line: Int
        var column: Int
    }

    var severity: Severity
    /// The graphql-js rule name without `Rule` (`FieldsOnCorrectType`), or one of the names
    /// of `Diagnostic.Rule` for problems that are not a rule's.
    var rule: String
    var message: String
    /// The file the finding belongs to (also when it has no position, e.g. an unreadable file).
    var file: String
    /// Where, primary position first; empty when the finding is about the file as a whole.
    var positions: [Position]

    var primary: Position? { positions.first }

    /// Rule names of findings no validation rule makes.
    enum Rule {
        /// The document does not parse (spec §2, the grammar).
        static let syntaxError = "SyntaxError"
        /// The file is not UTF-8 (spec §2.1 "Source Text").
        static let invalidUTF8 = "InvalidUTF8"
        /// The path cannot be read (missing, permissions, a special file).
        static let unreadableFile = "UnreadableFile"
        /// A directory argument holds no `*.graphql` or `*.gql` file.
        static let noDocuments = "NoDocuments"
    }

    /// True for problems with the inputs themselves rather than with a document's content:
    /// `validate` exits 2 for these (as for any other I/O problem), 1 for document errors.
    var isInputProblem: Bool { rule == Rule.unreadableFile || rule == Rule.noDocuments }
}

/// What one `validate` run over many documents found, with the counts of its summary line.
struct ValidationReport {
    var diagnostics: [Diagnostic]
    /// Document files read (including those that did not parse).
    var fileCount: Int
    /// Operation definitions in the files that parsed.
    var operationCount: Int

    var errorCount: Int { diagnostics.count { $0.severity == .error } }
    var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// `N files, M operations, K errors`, then `, W warnings` when any: always these plural
    /// nouns, so a CI step can match the line with one pattern.
    var summary: String {
        var line = "\(fileCount) files, \(operationCount) operations, \(errorCount) errors"
        if warningCount > 0 { line += ", \(warningCount) warnings" }
        return line
    }

    /// 2 when an input could not be read, else 1 when there is any error, else 0.
    var exitStatus: Int32 {
        if diagnostics.contains(where: \.isInputProblem) { return 2 }
        return errorCount > 0 ? 1 : 0
    }
}
