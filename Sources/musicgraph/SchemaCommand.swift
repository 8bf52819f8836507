import GraphQL

/// `musicgraph schema [--schema S.graphql] [--json]`: prints the schema in graphql-js
/// `printSchema` form (exit 0); without `--schema`, the one `serve` would serve (`SchemaText`).
/// An invalid schema file prints every error as `FILE:LINE:COLUMN: message` on stderr and
/// exits 1; usage and I/O problems exit 2.
func runSchemaCommand(_ args: CommandLineArguments) -> Int32 {
    if args.wantsHelp {
        writeStdout(
            """
            usage: musicgraph schema [--schema S.graphql] [--json]

            Prints the schema built from S.graphql in canonical SDL (graphql-js printSchema form),
            or with --json its introspection result. Exits 1 with every error (FILE:LINE:COLUMN:
            message, on stderr) when the schema is invalid.

            Without --schema: ./schema.graphql when there is one, else the gateway's built-in
            schema (as serve does).

            """)
        return 0
    }
    let text: SchemaText
    do throws(CLIError) {
        text = try SchemaText.read(args, fallbackPath: args.positionals.first)
    } catch {
        return fail("schema", error)
    }
    let schema: Schema
    do throws(CLIError) {
        schema = try text.build()
    } catch {
        writeStderr(error.message)
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
