import Foundation
import GraphQL

/// `musicgraph validate [--schema S.graphql] [--format json|text|github|sarif] [FILE|DIR…]`:
/// validates executable documents against the schema built from S.graphql (without `--schema`,
/// the one `serve` would serve: `SchemaText`), with every specified rule (spec §5) and
/// deprecated usages as warnings (`--fail-on-deprecated`: errors).
///
/// With exactly one FILE (or stdin) the default format is `json`, the one-document contract
/// of ../shared/conformance/README.md "The CLI contract", unchanged:
/// - valid: `{"errors":[]}`, exit 0;
/// - invalid: `{"errors":[{"message":…,"locations":[…],"extensions":{"rule":"…"}}]}`, exit 1;
/// - syntax error in the document: the error as `format` reports it (no rule), exit 1;
/// - deprecated usages, when any: a `"warnings":[…]` entry of the same shape after `errors`.
///
/// With several FILEs or any DIR (searched for `*.graphql`/`*.gql`) the documents are one
/// project (`ProjectValidation`: fragments resolve across files, names are unique across
/// files) and the default format is `text`. Unreadable files, non-UTF-8 files, directories
/// without documents are reported like any other finding, and the other files are still
/// checked. Exit status: 0 without errors, 1 with errors, 2 when an input could not be read,
/// the schema is invalid (its errors as `FILE:LINE:COLUMN: message` on stderr) or the
/// command line is wrong.
///
/// Operation limits (`--serve-limits`, `--max-depth N`, `--max-aliases N`, …, the names `serve`
/// takes) are checked on documents that pass the rules, reported under the limit's name
/// (`MaxDepth`, `MaxAliases`, `MaxRootFields`, `MaxDirectives`, `NoIntrospection`).
///
/// `--incremental` adds `@defer` and `@stream` to the schema and the incremental delivery
/// RFC's rules (`incrementalDeliveryRules`) to the rules, in both forms.
func runValidateCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(validateUsage)
        return 0
    }
    let options: ParseOptions
    let limits: OperationLimits
    let repeatCount: Int?
    let maxErrors: Int
    let schemaText: SchemaText
    let format: ReportFormat
    let oneDocument: Bool
    do throws(CLIError) {
        // Local files are trusted: no token limit unless asked for.
        options = ParseOptions(maxTokens: try args.int("--max-tokens"))
        // No operation limit unless asked for: the specified rules alone are the contract.
        limits = try OperationLimitOptions.limits(args, over: args.flag("--serve-limits") ? OperationLimits() : .none)
        repeatCount = try args.int("--repeat")
        if repeatCount == 0 { throw CLIError("--repeat expects at least 1") }
        maxErrors = try args.int("--max-errors") ?? 100
        var isDirectory: ObjCBool = false
        oneDocument =
            args.positionals.count == 0
            || (args.positionals.count == 1
                && !(FileManager.default.fileExists(atPath: args.positionals[0], isDirectory: &isDirectory)
                    && isDirectory.boolValue))
        if let name = try args.value("--format") {
            guard let chosen = ReportFormat(rawValue: name) else {
                throw CLIError(
                    "--format expects one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(name)'"
                )
            }
            format = chosen
        } else {
            format = oneDocument ? .json : .text
        }
        schemaText = try SchemaText.read(args)
    } catch {
        return fail("validate", error)
    }

    var schema: Schema
    do throws(CLIError) {
        schema = try schemaText.build()
        try schemaText.checkDeclarations(of: schema)
    } catch {
        writeStderr(error.message)
        return 2
    }
    let incremental = args.flag("--incremental")
    if incremental { schema = schema.addingIncrementalDirectives() }
    let rules = incremental ? incrementalDeliveryRules : specifiedRules
    let failOnDeprecated = args.flag("--fail-on-deprecated")
    if oneDocument && format == .json {
        return validateOneDocument(
            args.positionals.first, schema: schema, rules: rules, options: options, limits: limits,
            maxErrors: maxErrors, failOnDeprecated: failOnDeprecated, repeatCount: repeatCount)
    }

    let inputs = DocumentFiles(
        arguments: args.positionals.isEmpty ? ["-"] : args.positionals, schemaPath: schemaText.name)
    let validation = ProjectValidation(
        schema: schema, rules: rules, parseOptions: options, limits: limits, maxErrors: maxErrors,
        failOnDeprecated: failOnDeprecated)
    var timer = PhaseTimer()
    var report = ValidationReport(diagnostics: [], fileCount: 0, operationCount: 0)
    for _ in 0..<(repeatCount ?? 1) {
        report = timer.measure("validate") { validation.run(inputs) }
    }
    if let repeatCount { writeStderr(timer.summary(repeat: repeatCount)) }
    switch format {
    case .text: writeStdout(report.text())
    case .github: writeStdout(report.github())
    case .sarif: writeStdout(report.sarif())
    case .json: writeStdout(report.json())
    }
    return report.exitStatus
}

/// The one-document JSON contract: exactly today's output and exit status for everything
/// the specified rules say; deprecated usages in `warnings` (or `errors` with
/// `failOnDeprecated`); a valid document over an operation limit asked for is an error with
/// the limit's name as `extensions.rule` (and its `code`, as `serve` answers it).
private func validateOneDocument(
    _ path: String?, schema: Schema, rules: [ValidationRule], options: ParseOptions, limits: OperationLimits,
    maxErrors: Int, failOnDeprecated: Bool, repeatCount: Int?
) -> Int32 {
    let bytes: [UInt8]
    do throws(CLIError) {
        bytes = try readInput(path)
    } catch {
        return fail("validate", error)
    }
    let source = Source(bytes: bytes, name: path ?? "stdin")
    var timer = PhaseTimer()
    var errors: [GraphQLError] = []
    var deprecated: [GraphQLError] = []
    do throws(GraphQLError) {
        for _ in 0..<(repeatCount ?? 1) {
            let document = try timer.measure("parse") { () throws(GraphQLError) in try parse(source, options: options) }
            errors = timer.measure("validate") {
                validate(schema: schema, document: document, source: source, rules: rules, maxErrors: maxErrors)
            }
            if errors.isEmpty {
                errors = checkOperationLimits(document: document, source: source, limits: limits).map(\.withLimitRule)
            }
            deprecated = validate(
                schema: schema, document: document, source: source, rules: [noDeprecatedCustomRule],
                maxErrors: maxErrors)
        }
    } catch {
        writeStdout(errorsJSON([error]) + "\n")
        return 1
    }
    if let repeatCount { writeStderr(timer.summary(repeat: repeatCount)) }
    if failOnDeprecated {
        errors += deprecated
        deprecated = []
    }
    var out = errorsJSON(errors)
    if !deprecated.isEmpty {
        out.removeLast()
        out += ",\"warnings\":[" + deprecated.map(jsonText).joined(separator: ",") + "]}"
    }
    writeStdout(out + "\n")
    return errors.isEmpty ? 0 : 1
}

/// What `validate` takes; `dispatch` refuses any other option.
let validateOptions = OperationLimitOptions.names.union([
    "--schema", "--max-tokens", "--repeat", "--max-errors", "--format", "--fail-on-deprecated", "--incremental",
    "--serve-limits",
])

private let validateUsage = """
    usage: musicgraph validate [--schema S.graphql] [options] [FILE|DIR ...]

    Validates GraphQL documents against the schema in S.graphql with every validation rule
    of the specification (graphql-js 16 specifiedRules), and reports deprecated fields,
    arguments, input fields and enum values (NoDeprecatedCustom) as warnings. Without
    --schema: ./schema.graphql when there is one, else the gateway's built-in schema (as
    serve does).

    One FILE (or stdin, or -): prints {"errors":[]} and exits 0 when it is valid; else
    {"errors":[{"message":...,"locations":[...],"extensions":{"rule":"RuleName"}}]} and
    exits 1; deprecated usages are listed under "warnings". A syntax error is printed as
    `format` prints it (exit 1).

    Several FILEs or a DIR (searched recursively for *.graphql and *.gql; hidden entries,
    node_modules and the schema file itself are skipped): one project, as graphql-config's
    documents. A fragment defined in one file may be spread in any other; operation and
    fragment names must be unique across files. Prints one line per finding,
      path:line:col: error: message [RuleName]
    then "N files, M operations, K errors". Unreadable and non-UTF-8 files and
    directories without documents are reported too; the other files are still checked.

    Exit status: 0 no errors (warnings allowed), 1 errors, 2 an input could not be read, an
    invalid schema (its errors as FILE:LINE:COLUMN: message on stderr) or a usage problem.

    options:
      --format F           json (default for one FILE), text (default otherwise),
                           github (::error file=...,line=...,col=...,title=Rule::message
                           workflow commands for GitHub Actions annotations) or sarif
                           (SARIF 2.1.0 for code scanning)
      --fail-on-deprecated report deprecated usages as errors
      --incremental        add @defer and @stream to the schema and their four rules
                           (DeferStreamDirectiveLabel, DeferStreamDirectiveOnRootField,
                           DeferStreamDirectiveOnValidOperations, StreamDirectiveOnListField)
      --max-tokens N       fail with a syntax error past N tokens (default: no limit)
      --serve-limits       check the operation limits serve enforces, with its defaults;
                           each option below checks one (as serve names it) over these
                           (without --serve-limits, only the ones given are checked):
    """ + OperationLimitOptions.help + """

          --max-errors N       stop after N validation errors per document (default: 100, as graphql-js)
          --repeat N           do the work N times; print median ms per phase to stderr as
                               {"parse_ms":…,"validate_ms":…,"repeat":N} (one document) or
                               {"validate_ms":…,"repeat":N} (a project)
          --help               this text

        """

extension GraphQLError {
    /// The error with its operation limit's name as `extensions.rule`, the column every
    /// `validate` format reports.
    var withLimitRule: GraphQLError {
        var error = self
        if case .string(let limit)? = extensions["limit"] { error.extensions["rule"] = .string(limit) }
        return error
    }
}
