import Catalog
import Foundation
import GraphQL

/// `musicgraph query [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]`:
/// runs one GraphQL query through the gateway against the configured upstreams (or the
/// in-process demo catalog) and prints the response JSON with its `extensions`; with
/// `--incremental`, each `@defer`/`@stream` payload as a JSON line as it arrives.
///
/// Exit status: `QueryExit`; `dispatch` refuses options other than `queryOptions`.
func runQueryCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(queryUsage)
        return 0
    }
    let invocation: QueryInvocation
    do throws(CLIError) { invocation = try QueryInvocation(args) } catch { return fail("query", error) }
    let (setup, operationName, vars) = (invocation.setup, invocation.operationName, invocation.variables)
    let incremental = args.flag("--incremental")
    return runGatewayBlocking {
        defer { _ = setup }
        let status: Int32
        switch setup.gateway.prepare(bytes: invocation.text, name: invocation.sourceName, limits: invocation.limits) {
        case .failure(let rejection):
            writeStdout(invocation.refusal(rejection.errors))
            status = QueryExit.notAnswered.rawValue
        case .success(let prepared) where incremental:
            let (errors, isRequestError) = await runIncrementalQuery(
                gateway: setup.gateway, prepared: prepared, operationName: operationName, variables: vars)
            let misses = errors.filter { $0.extensions["code"] == .string("UPSTREAM_NOT_RECORDED") }
            for miss in misses { writeStderr("musicgraph query: \(miss.message)") }
            status = QueryExit.status(errors: errors, isRequestError: isRequestError).rawValue
        case .success(let prepared):
            let response = await setup.gateway.execute(
                prepared: prepared, operationName: operationName, variables: vars)
            writeAll(response.serialized() + [UInt8(ascii: "\n")], to: 1)
            let result = response.result
            // A replay that lacks an exchange answered something other than what was recorded:
            // a test run must not pass on it, so it gets an exit status of its own.
            let misses = result.errors.filter { $0.extensions["code"] == .string("UPSTREAM_NOT_RECORDED") }
            for miss in misses { writeStderr("musicgraph query: \(miss.message)") }
            status = QueryExit.status(errors: result.errors, isRequestError: result.isRequestError).rawValue
        }
        if let demo = setup.demo { await demo.shutdown() }
        let unwritten = setup.gateway.recordingFailures
        for failure in unwritten { writeStderr("musicgraph query: --record could not write \(failure)") }
        return unwritten.isEmpty ? status : 2
    }
}

/// What `query`'s exit status says about the answer, so a script can tell a whole answer from
/// one with holes without reading the JSON.
enum QueryExit: Int32 {
    /// Data without errors.
    case answered = 0
    /// Nothing was answered: a request error (syntax, validation, variables, a limit; errors
    /// only), or a response `--max-response-bytes` stopped (`RESPONSE_TOO_LARGE`: its data, or
    /// the rest of an incremental one, was never written).
    case notAnswered = 1
    /// `--replay` had no recording for an upstream call (`UPSTREAM_NOT_RECORDED`): the answer is
    /// not the recorded one, which a test run must not pass on.
    case notRecorded = 3
    /// Field errors: partial data, or `data` null, because an upstream failed (unreachable, an
    /// error status, a spent quota) or a value broke the schema.
    case fieldErrors = 4

    static func status(errors: [GraphQLError], isRequestError: Bool) -> QueryExit {
        let codes = errors.map { $0.extensions["code"] }
        if isRequestError || codes.contains(.string("RESPONSE_TOO_LARGE")) { return .notAnswered }
        if codes.contains(.string("UPSTREAM_NOT_RECORDED")) { return .notRecorded }
        return errors.isEmpty ? .answered : .fieldErrors
    }
}

/// What `query` takes; `dispatch` refuses any other option.
let queryOptions = GatewaySetup.options.union(["--variables", "--operation", "--incremental"]).union(
    OperationLimitOptions.names)

private let queryUsage = """
    usage: musicgraph query [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]

    Runs the GraphQL query in FILE (or stdin) through the gateway and prints the response:
    {"data":…} plus "errors" when any, and "extensions": {"cost":{"estimated","actual"},
    "upstream":{"requests","cacheHits","deduplicated"},"quota":{…}}.

    exit status:
      0  answered, no errors
      1  not answered: a request error (syntax, validation, variables, cost limit, operation
         limits; errors only) or a response over --max-response-bytes (RESPONSE_TOO_LARGE)
      2  a usage problem (options, unreadable files, a recording that cannot be written)
      3  --replay had no recording for an upstream call (UPSTREAM_NOT_RECORDED; each named
         on stderr)
      4  answered with field errors: partial data, or "data" null, because an upstream failed
         (UPSTREAM_UNREACHABLE, an error status, a spent quota, ...)

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
