import GraphQL

/// `musicgraph format [FILE]`: prints a document in graphql-js `print()` canonical form
/// plus one newline (exit 0), or `{"errors":[…]}` with the first syntax error (exit 1).
/// The contract is ../shared/conformance/README.md "The CLI contract".
/// `dispatch` refuses options other than `formatOptions`.
func runFormatCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(formatUsage)
        return 0
    }
    guard args.positionals.count <= 1 else { return fail("format", CLIError("expects at most one FILE")) }

    let options: ParseOptions
    let repeatCount: Int?
    let bytes: [UInt8]
    do throws(CLIError) {
        // Local files are trusted: no token limit unless asked for.
        options = ParseOptions(
            maxTokens: try args.int("--max-tokens"),
            maxDepth: try args.int("--max-depth") ?? ParseOptions.defaultMaxDepth)
        repeatCount = try args.int("--repeat")
        if repeatCount == 0 { throw CLIError("--repeat expects at least 1") }
        bytes = try readInput(args.positionals.first)
    } catch {
        return fail("format", error)
    }

    let source = Source(bytes: bytes, name: args.positionals.first ?? "stdin")
    var timer = PhaseTimer()
    var document = Document(definitions: [], loc: .none)
    do throws(GraphQLError) {
        for _ in 0..<(repeatCount ?? 1) {
            document = try timer.measure("parse") { () throws(GraphQLError) in try parse(source, options: options) }
            if repeatCount != nil { _ = timer.measure("print") { print(document) } }
        }
    } catch {
        writeStdout(errorsJSON([error]) + "\n")
        return 1
    }
    if let repeatCount { writeStderr(timer.summary(repeat: repeatCount)) }
    writeCanonical(document)
    return 0
}

/// Writes `document` as `print(document)` would, plus a newline, a definition at a time:
/// holding the whole printed text as well as the AST would add one more copy of the document
/// to the peak memory of formatting a large schema.
private func writeCanonical(_ document: Document) {
    var chunk = ""
    for (index, definition) in document.definitions.enumerated() {
        if index > 0 { chunk += "\n\n" }
        chunk += print(definition)
        if chunk.utf8.count >= 16_384 {
            writeStdout(chunk)
            chunk = ""
        }
    }
    writeStdout(chunk + "\n")
}

let formatOptions: Set<String> = ["--max-tokens", "--max-depth", "--repeat"]

private let formatUsage = """
    usage: musicgraph format [options] [FILE]

    Prints the GraphQL document in FILE (or stdin) in canonical form, as graphql-js print()
    does, followed by one newline. On a syntax error, prints
    {"errors":[{"message":...,"locations":[{"line":L,"column":C}]}]} and exits 1.

    options:
      --max-tokens N   fail with a syntax error past N tokens (default: no limit)
      --max-depth N    fail with a syntax error past N levels of nesting (default: 500)
      --repeat N       parse and print N times; print median ms per phase to stderr as
                       {"parse_ms":…,"print_ms":…,"repeat":N}
      --help           this text

    """
