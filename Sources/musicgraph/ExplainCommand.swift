import Catalog
import Foundation
import GraphQL
import HTTPTypes

/// `musicgraph explain [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]`: the
/// upstream plan of a query, nothing sent (`RequestMode.dryRun`): prints
/// `{"plan": …, "cost": …, "quota": …}`, the response's `extensions` of a dry run.
///
/// Exit status: 0 with a plan, 1 when the document is refused (its errors printed as `query`
/// prints them), 2 for bad options.
func runExplainCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(explainUsage)
        return 0
    }
    guard args.positionals.count <= 1 else { return fail("explain", CLIError("expects at most one FILE")) }
    let text: [UInt8]
    let setup: GatewaySetup
    let limits: OperationLimits
    var variables = JSONObject()
    let operationName: String?
    do throws(CLIError) {
        operationName = try args.value("--operation")
        text = try readInput(args.positionals.first)
        if let json = try args.value("--variables") {
            switch Result(catching: { () throws(JSONParseError) in try JSONReader.parse(json) }) {
            case .success(.object(let object)): variables = object
            case .success(.null): break
            case .success: throw CLIError("--variables must be a JSON object")
            case .failure(let error): throw CLIError("--variables is not valid JSON: \(error)")
            }
        }
        limits = try OperationLimitOptions.limits(args, over: OperationLimits())
        setup = try GatewaySetup.make(args)
    } catch {
        return fail("explain", error)
    }
    let sourceName = args.positionals.first ?? "stdin"
    let vars = variables
    return runGatewayBlocking {
        defer { _ = setup }
        let status: Int32
        switch setup.gateway.prepare(bytes: text, name: sourceName, limits: limits) {
        case .failure(let rejection):
            var response = JSONObject([("errors", .array(rejection.errors.map(\.json)))])
            response["extensions"] = .object(setup.gateway.notExecutedExtensions())
            writeStdout(JSONWriter.string(.object(response)) + "\n")
            status = 1
        case .success(let prepared):
            let response = await RequestMode.$dryRun.withValue(true) {
                await setup.gateway.execute(prepared: prepared, operationName: operationName, variables: vars)
            }
            writeStdout(JSONWriter.string(.object(response.extensions)) + "\n")
            status = 0
        }
        if let demo = setup.demo { await demo.shutdown() }
        return status
    }
}

let explainOptions = GatewaySetup.options.union(["--variables", "--operation"]).union(OperationLimitOptions.names)

private let explainUsage = """
    usage: musicgraph explain [--demo] [--variables JSON] [--operation NAME] [options] [FILE|-]

    Plans the GraphQL query in FILE (or stdin) without sending anything upstream, and prints
    {"cost":{"estimated",…},"plan":{…},"quota":{…}}: every upstream call the query asks for and
    what would answer it (cache, a request in flight, or a send, with its quota units), by
    level, provider and endpoint. A call that would be sent ends the plan below it ("complete":
    false); the estimate prices the whole query. Against a store that holds earlier answers
    (--store), the plan follows them. Takes query's gateway options.

    Exit status: 0 with a plan; 1 when the document is refused (errors printed); 2 for bad
    options.

    """ + GatewaySetup.optionsHelp
