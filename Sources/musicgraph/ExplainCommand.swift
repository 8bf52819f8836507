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
    let invocation: QueryInvocation
    do throws(CLIError) { invocation = try QueryInvocation(args) } catch { return fail("explain", error) }
    let (setup, operationName, vars) = (invocation.setup, invocation.operationName, invocation.variables)
    return runGatewayBlocking {
        defer { _ = setup }
        let status: Int32
        switch setup.gateway.prepare(bytes: invocation.text, name: invocation.sourceName, limits: invocation.limits) {
        case .failure(let rejection):
            writeStdout(invocation.refusal(rejection.errors))
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
