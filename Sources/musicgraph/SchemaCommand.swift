import GraphQL

/// `musicgraph schema --schema S.graphql [--json]`: prints the schema in graphql-js
/// `printSchema` form (exit 0). An invalid schema file prints every error as
/// `FILE:LINE:COLUMN: message` on stderr and exits 1; usage and I/O problems exit 2.
func runSchemaCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(
            """
            usage: musicgraph schema --schema S.graphql [--json]

            Prints the schema built from S.graphql in canonical SDL (graphql-js printSchema form),
            or with --json its introspection result. Exits 1 with every error (FILE:LINE:COLUMN:
            message, on stderr) when the schema is invalid.

            """)
        return 0
    }
    let schemaFlag: String?
    do throws(CLIError) { schemaFlag = try args.value("--schema") } catch { return fail("schema", error) }
    guard let path = schemaFlag ?? args.positionals.first else {
        return fail("schema", CLIError("--schema S.graphql is required"))
    }
    let bytes: [UInt8]
    do {
        bytes = try readInput(path)
    } catch {
        return fail("schema", error)
    }
    let schema: Schema
    do {
        schema = try buildSchema(source: Source(bytes: bytes, name: path))
    } catch {
        writeStderr(error.description)
        return 1
    }
    if args.flag("--json") {
        // graphql-js `introspectionFromSchema`: the `data` of the full introspection query.
        let result = introspectionFromSchema(schema)
        guard let data = result.data, result.errors.isEmpty else {
            writeStdout(String(decoding: result.serialized(), as: UTF8.self) + "\n")
            return 1
        }
        writeStdout(JSONWriter.string(data) + "\n")
        return 0
    }
    writeStdout(printSchema(schema) + "\n")
    return 0
}

/// What `schema` takes; `dispatch` refuses any other option.
let schemaOptions: Set<String> = ["--schema", "--json"]
