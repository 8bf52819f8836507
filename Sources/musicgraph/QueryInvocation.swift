import Catalog
import GraphQL

/// What `query` and `explain` read from their arguments: the document (bytes: the parser names
/// an invalid UTF-8 byte instead of reading U+FFFD), its variables and operation, serve's
/// operation limits (so a query that runs here runs there too), and the gateway.
struct QueryInvocation {
    let text: [UInt8]
    /// The document's name in errors: its file, or `stdin`.
    let sourceName: String
    let operationName: String?
    let variables: JSONObject
    let limits: OperationLimits
    let setup: GatewaySetup

    /// - Throws: `CLIError` for more than one FILE, bad `--variables`, limits or gateway options.
    init(_ args: CommandLineArguments) throws(CLIError) {
        guard args.positionals.count <= 1 else { throw CLIError("expects at most one FILE") }
        operationName = try args.value("--operation")
        text = try readInput(args.positionals.first)
        var variables = JSONObject()
        if let json = try args.value("--variables") {
            switch Result(catching: { () throws(JSONParseError) in try JSONReader.parse(json) }) {
            case .success(.object(let object)): variables = object
            case .success(.null): break
            case .success: throw CLIError("--variables must be a JSON object")
            case .failure(let error): throw CLIError("--variables is not valid JSON: \(error)")
            }
        }
        self.variables = variables
        limits = try OperationLimitOptions.limits(args, over: OperationLimits())
        setup = try GatewaySetup.make(args)
        sourceName = args.positionals.first ?? "stdin"
    }

    /// The refused document's answer, in the shape of a refusal over HTTP: its errors, and zero
    /// cost and upstream counts.
    func refusal(_ errors: [GraphQLError]) -> String {
        var response = JSONObject([("errors", .array(errors.map(\.json)))])
        response["extensions"] = .object(setup.gateway.notExecutedExtensions())
        return JSONWriter.string(.object(response)) + "\n"
    }
}
