import Catalog
import Foundation
import GraphQL

/// `musicgraph query [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]`:
/// runs one GraphQL query through the gateway against the configured upstreams (or the
/// in-process demo catalog) and prints the response JSON with its `extensions`; with
/// `--incremental`, each `@defer`/`@stream` payload as a JSON line as it arrives.
///
/// Exit 0 once execution started (field errors included); 1 for request errors (syntax,
/// validation, variables, the cost limit) and for a response `--max-response-bytes` stopped
/// (`RESPONSE_TOO_LARGE`: none of its data is printed, so nothing was answered); 2 for CLI problems; 3 when `--replay` had no
/// recording for an upstream call (`UPSTREAM_NOT_RECORDED`, also named on stderr).
func runQueryCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(queryUsage)
        return 0
    }
    guard args.positionals.count <= 1 else { return fail("query", CLIError("expects at most one FILE")) }

    let text: [UInt8]
    let setup: GatewaySetup
    let limits: OperationLimits
    var variables = JSONObject()
    let operationName: String?
    do throws(CLIError) {
        operationName = try args.value("--operation")
        // Kept as bytes: the parser names an invalid UTF-8 byte instead of reading U+FFFD.
        text = try readInput(args.positionals.first)
        if let json = try args.value("--variables") {
            switch Result(catching: { () throws(JSONParseError) in try JSONReader.parse(json) }) {
            case .success(.object(let object)): variables = object
            case .success(.null): break
            case .success: throw CLIError("--variables must be a JSON object")
            case .failure(let error): throw CLIError("--variables is not valid JSON: \(error)")
            }
        }
        // serve's limits and defaults, so a query that runs here runs there too.
        limits = try OperationLimitOptions.limits(args, over: OperationLimits())
        setup = try GatewaySetup.make(args)
    } catch {
        return fail("query", error)
    }
    let sourceName = args.positionals.first ?? "stdin"
    let vars = variables
    let incremental = args.flag("--incremental")
    return runGatewayBlocking {
        defer { _ = setup }
        let status: Int32
        switch setup.gateway.prepare(bytes: text, name: sourceName, limits: limits) {
        case .failure(let rejection):
            // The same shape as over HTTP: zero cost and upstream counts for a refused document.
            var response = JSONObject([("errors", .array(rejection.errors.map(\.json)))])
            response["extensions"] = .object(setup.gateway.notExecutedExtensions())
            writeStdout(JSONWriter.string(.object(response)) + "\n")
            status = 1
        case .success(let prepared) where incremental:
            let (errors, isRequestError) = await runIncrementalQuery(
                gateway: setup.gateway, prepared: prepared, operationName: operationName, variables: vars)
            let misses = errors.filter { $0.extensions["code"] == .string("UPSTREAM_NOT_RECORDED") }
            for miss in misses { writeStderr("musicgraph query: \(miss.message)") }
            status = isRequestError || stoppedForSize(errors) ? 1 : misses.isEmpty ? 0 : 3
        case .success(let prepared):
            let response = await setup.gateway.execute(
                prepared: prepared, operationName: operationName, variables: vars)
            writeAll(response.serialized() + [UInt8(ascii: "\n")], to: 1)
            // A replay that lacks an exchange answered something other than what was recorded:
            // a test run must not pass on it, so it gets an exit status of its own.
            let misses = response.result.errors.filter { $0.extensions["code"] == .string("UPSTREAM_NOT_RECORDED") }
            for miss in misses { writeStderr("musicgraph query: \(miss.message)") }
            status =
                response.result.isRequestError || stoppedForSize(response.result.errors) ? 1 : misses.isEmpty ? 0 : 3
        }
        if let demo = setup.demo { await demo.shutdown() }
        let unwritten = setup.gateway.recordingFailures
        for failure in unwritten { writeStderr("musicgraph query: --record could not write \(failure)") }
        return unwritten.isEmpty ? status : 2
    }
}

/// Whether `--max-response-bytes` stopped the response: its data (or the rest of an incremental
/// one) was never written, which a script must not take for an answer.
private func stoppedForSize(_ errors: [GraphQLError]) -> Bool {
    errors.contains { $0.extensions["code"] == .string("RESPONSE_TOO_LARGE") }
}

/// What `query` takes; `dispatch` refuses any other option.
let queryOptions = GatewaySetup.options.union(["--variables", "--operation", "--incremental"]).union(
    OperationLimitOptions.names)

private let queryUsage = """
    usage: musicgraph query [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]

    Runs the GraphQL query in FILE (or stdin) through the gateway and prints the response:
    {"data":…} plus "errors" when any, and "extensions": {"cost":{"estimated","actual"},
    "upstream":{"requests","cacheHits","deduplicated"},"quota":{…}}. Exit status: 0 once
    execution started (even with field errors), 1 for request errors (syntax, validation,
    variables, cost limit, operation limits) and for a response over --max-response-bytes
    (RESPONSE_TOO_LARGE), 2 for usage problems, 3 when --replay had no recording for an
    upstream call (UPSTREAM_NOT_RECORDED; each named on stderr).

    example:
      musicgraph query --demo examples/artist-albums-tracks-videos.graphql

    options:
      --variables JSON       variable values, as a JSON object given as the argument text
      --operation NAME       the operation to run when the document has several
      --incremental          honour @defer and @stream: print each payload as one JSON line as
                             it arrives ({"data","pending","hasNext":true}, then {"hasNext",
                             "incremental","completed"} lines; the last one has "extensions")

    operation limits (the same flags and defaults as serve):
    """ + OperationLimitOptions.help + "\n\n" + GatewaySetup.optionsHelp + "\n"
