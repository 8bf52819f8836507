import Foundation
import GraphQL
import GraphQLMocks

/// `musicgraph exec [--schema S.graphql] --data ROOT.json [--variables JSON] [--operation NAME] [FILE]`:
/// executes the document in FILE (or stdin) over the static JSON root value with default
/// property resolvers and prints the response JSON. Without `--schema`, the schema `serve`
/// would serve (`SchemaText`). With `--mock [--seed N] [--mock-values FILE]`
/// instead of `--data`, every field is answered by `MockEngine` from the schema alone.
///
/// Exit 0 once execution started (field errors and `data: null` included); exit 1 with an
/// errors-only response for request errors (syntax, validation, operation selection,
/// variable coercion); exit 2 for CLI problems (unreadable files, invalid schema or data).
/// The contract is ../shared/conformance/README.md "The CLI contract".
///
/// With `--incremental` the schema gains `@defer` and `@stream`, validation their rules, and
/// the response is printed as JSON Lines, one payload per line as soon as it is ready (one
/// line, the ordinary response, when nothing is deferred); `{"__delayMs": N, "value": V}` in
/// the data stands for V known N ms later (DelayedValueResolvers). The contract is
/// ../shared/conformance/README.md "Incremental delivery".
func runExecCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(execUsage)
        return 0
    }
    guard args.positionals.count <= 1 else { return fail("exec", CLIError("expects at most one FILE")) }

    let incremental = args.flag("--incremental")
    let options: ParseOptions
    let repeatCount: Int?
    var schema: Schema
    var rootValue: JSONValue = .object(JSONObject())
    var resolvers: any ExecutionResolvers = PropertyResolvers()
    let documentBytes: [UInt8]
    let variablesText: String?
    let operationName: String?
    do throws(CLIError) {
        variablesText = try args.value("--variables")
        operationName = try args.value("--operation")
        options = ParseOptions(
            maxTokens: try args.int("--max-tokens"),
            maxDepth: try args.int("--max-depth") ?? ParseOptions.defaultMaxDepth)
        repeatCount = try args.int("--repeat")
        if repeatCount == 0 { throw CLIError("--repeat expects at least 1") }
        if incremental && repeatCount != nil { throw CLIError("--repeat does not combine with --incremental") }
        schema = try SchemaText.read(args).build()
        if let engine = try MockOptions.engine(args, schema: schema) {
            guard try args.value("--data") == nil else { throw CLIError("--mock answers from the schema; drop --data") }
            resolvers = MockResolvers(engine: engine)
        } else {
            guard let dataPath = try args.value("--data") else {
                throw CLIError("--data ROOT.json (or --mock) is required")
            }
            let dataBytes = try readInput(dataPath)
            do throws(JSONParseError) {
                rootValue = try JSONReader.parse(dataBytes)
            } catch {
                throw CLIError("\(dataPath): \(error)")
            }
        }
        documentBytes = try readInput(args.positionals.first)
    } catch {
        return fail("exec", error)
    }

    // Variables are part of the request: bad variables JSON is a request error (exit 1).
    var variables = JSONObject()
    if let text = variablesText {
        switch Result(catching: { () throws(JSONParseError) in try JSONReader.parse(text) }) {
        case .success(.object(let object)): variables = object
        case .success(.null): break
        case .success:
            return requestError(GraphQLError("Variables must be provided as a JSON object."))
        case .failure(let error):
            return requestError(GraphQLError("Variables are invalid JSON: \(error)"))
        }
    }

    let source = Source(bytes: documentBytes, name: args.positionals.first ?? "stdin")
    if incremental {
        schema = schema.addingIncrementalDirectives()
        // Static data reads through the delay convention; mocks answer as they do without the flag.
        if resolvers is PropertyResolvers { resolvers = DelayedValueResolvers() }
        return execIncrementally(
            schema: schema, source: source, options: options, rootValue: rootValue, variables: variables,
            operationName: operationName, resolvers: resolvers)
    }
    var timer = PhaseTimer()
    var output: [UInt8] = []
    var isRequestError = false
    for _ in 0..<(repeatCount ?? 1) {
        let document: Document
        do {
            document = try timer.measure("parse") { () throws(GraphQLError) in try parse(source, options: options) }
        } catch {
            return requestError(error)
        }
        let validationErrors = timer.measure("validate") {
            validate(schema: schema, document: document, source: source)
        }
        guard validationErrors.isEmpty else {
            writeStdout(errorsJSON(validationErrors) + "\n")
            return 1
        }
        let result = timer.measure("execute") {
            executeSynchronously(
                schema: schema, document: document, source: source, rootValue: .json(rootValue),
                variableValues: variables,
                operationName: operationName, resolvers: resolvers)
        }
        output = timer.measure("serialize") { result.serialized() }
        isRequestError = result.isRequestError
    }
    if let repeatCount { writeStderr(timer.summary(repeat: repeatCount)) }
    output.append(UInt8(ascii: "\n"))
    writeAll(output, to: 1)
    return isRequestError ? 1 : 0
}

/// `exec --incremental` after the inputs are read: parse, validate with the incremental
/// delivery rules, execute, one JSON line per payload.
private func execIncrementally(
    schema: Schema, source: Source, options: ParseOptions, rootValue: JSONValue, variables: JSONObject,
    operationName: String?, resolvers: any ExecutionResolvers
) -> Int32 {
    let document: Document
    do {
        document = try parse(source, options: options)
    } catch {
        return requestError(error)
    }
    let validationErrors = validate(schema: schema, document: document, source: source, rules: incrementalDeliveryRules)
    guard validationErrors.isEmpty else {
        writeStdout(errorsJSON(validationErrors) + "\n")
        return 1
    }
    return runGatewayBlocking {
        var status: Int32 = 0
        await executeIncrementally(
            schema: schema, document: document, source: source, rootValue: .json(rootValue), variableValues: variables,
            operationName: operationName, resolvers: resolvers
        ) { payload in
            if case .complete(let result) = payload, result.isRequestError { status = 1 }
            writeAll(payload.serialized() + [UInt8(ascii: "\n")], to: 1)
            return true
        }
        return status
    }
}

/// Prints an errors-only response and returns exit status 1.
private func requestError(_ error: GraphQLError) -> Int32 {
    writeStdout(errorsJSON([error]) + "\n")
    return 1
}

/// What `exec` takes; `dispatch` refuses any other option.
let execOptions = Set([
    "--schema", "--data", "--variables", "--operation", "--max-tokens", "--max-depth", "--repeat", "--incremental",
]).union(MockOptions.names)

private let execUsage = """
    usage: musicgraph exec [--schema S.graphql] --data ROOT.json [options] [FILE]
           musicgraph exec [--schema S.graphql] --mock [--seed N] [--mock-values FILE] [options] [FILE]

    Executes the GraphQL operation in FILE (or stdin) against the schema built from
    S.graphql (without --schema: ./schema.graphql when there is one, else the gateway's
    built-in schema, as serve does), over the JSON root value in ROOT.json, with default
    property resolvers: a field reads its parent object's same-named key, and an interface
    or union value names its type in a "__typename" key. Prints the response ({"data":…}
    plus "errors" when any).
    Exit status: 0 once execution started (even with field errors), 1 for request errors
    (syntax, validation, operation selection, variable coercion; errors only, no "data"),
    2 for unusable input files.

    With --mock instead of --data, every field is answered from the schema alone (see below);
    with the gateway's schema, ids are global ids of the right provider.

    options:
      --incremental      honour @defer and @stream (added to the schema, with their validation
                         rules): print one JSON line per payload as it is ready, the initial
                         {"data","pending","hasNext":true} then {"hasNext","incremental",
                         "completed",...}; {"__delayMs": N, "value": V} in ROOT.json is V,
                         N ms later
      --variables JSON   variable values, as a JSON object given as the argument text
      --operation NAME   the operation to run when the document has several
      --max-tokens N     fail with a syntax error past N tokens (default: no limit)
      --max-depth N      fail with a syntax error past N levels of nesting (default: 500)
      --repeat N         run parse, validate, execute and serialize N times; print median
                         ms per phase to stderr as
                         {"parse_ms":…,"validate_ms":…,"execute_ms":…,"serialize_ms":…,"repeat":N}
      --help             this text

    """ + MockOptions.help + """


        """
