import GraphQL

/// `musicgraph validate --schema S.graphql [FILE]`: validates an executable document
/// (FILE or stdin) against the schema built from S.graphql, with every specified rule.
///
/// Exit status and output (../shared/conformance/README.md "The CLI contract"):
/// - valid: `{"errors":[]}`, exit 0;
/// - invalid: `{"errors":[{"message":…,"locations":[…],"extensions":{"rule":"…"}}]}`, exit 1;
/// - syntax error in the document: the error as `format` reports it (no rule), exit 1;
/// - invalid schema file: every schema error as `FILE:LINE:COLUMN: message` on stderr,
///   exit 2 (the document could not be judged at all); usage and I/O problems exit 2 too.
func runValidateCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(validateUsage)
        return 0
    }
    let unknown = args.unknown(allowed: ["--schema", "--max-tokens", "--max-depth", "--repeat", "--max-errors"])
    guard unknown.isEmpty else { return fail("validate", CLIError("unknown option \(unknown[0]); see --help")) }
    guard args.positionals.count <= 1 else { return fail("validate", CLIError("expects at most one FILE")) }
    guard let schemaPath = args.value("--schema") else {
        return fail("validate", CLIError("--schema S.graphql is required; see --help"))
    }

    let options: ParseOptions
    let repeatCount: Int?
    let maxErrors: Int
    let schemaBytes: [UInt8]
    let bytes: [UInt8]
    do throws(CLIError) {
        // Local files are trusted: no token limit unless asked for.
        options = ParseOptions(
            maxTokens: try args.int("--max-tokens"),
            maxDepth: try args.int("--max-depth") ?? ParseOptions.defaultMaxDepth)
        repeatCount = try args.int("--repeat")
        if repeatCount == 0 { throw CLIError("--repeat expects at least 1") }
        maxErrors = try args.int("--max-errors") ?? 100
        schemaBytes = try readInput(schemaPath)
        bytes = try readInput(args.positionals.first)
    } catch {
        return fail("validate", error)
    }

    let schema: Schema
    do {
        schema = try buildSchema(source: Source(bytes: schemaBytes, name: schemaPath))
    } catch {
        writeStderr(error.description)
        return 2
    }

    let source = Source(bytes: bytes, name: args.positionals.first ?? "stdin")
    var timer = PhaseTimer()
    var errors: [GraphQLError] = []
    do throws(GraphQLError) {
        for _ in 0..<(repeatCount ?? 1) {
            let document = try timer.measure("parse") { () throws(GraphQLError) in try parse(source, options: options) }
            errors = timer.measure("validate") {
                validate(schema: schema, document: document, source: source, maxErrors: maxErrors)
            }
        }
    } catch {
        writeStdout(errorsJSON([error]) + "\n")
        return 1
    }
    if let repeatCount { writeStderr(timer.summary(repeat: repeatCount)) }
    writeStdout(errorsJSON(errors) + "\n")
    return errors.isEmpty ? 0 : 1
}

private let validateUsage = """
    usage: musicgraph validate --schema S.graphql [options] [FILE]

    Validates the GraphQL document in FILE (or stdin) against the schema in S.graphql with
    every validation rule of the specification (graphql-js 16 specifiedRules).
    Prints {"errors":[]} and exits 0 when it is valid; else prints
    {"errors":[{"message":...,"locations":[...],"extensions":{"rule":"RuleName"}}]} and
    exits 1. A syntax error is printed as `format` prints it (exit 1). An invalid schema
    file prints its errors as FILE:LINE:COLUMN: message on stderr and exits 2.

    options:
      --max-tokens N   fail with a syntax error past N tokens (default: no limit)
      --max-depth N    fail with a syntax error past N levels of nesting (default: 500)
      --max-errors N   stop after N validation errors (default: 100, as graphql-js)
      --repeat N       parse and validate N times; print median ms per phase to stderr as
                       {"parse_ms":…,"validate_ms":…,"repeat":N}
      --help           this text

    """
