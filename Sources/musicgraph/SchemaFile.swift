import Catalog
import Foundation
import GraphQL

/// The SDL a command works with: the file `--schema` names; without it, what `serve` serves:
/// `./schema.graphql` when the working directory has one, else the copy built into the binary
/// (`GatewaySchema.sdl`), so `validate`, `exec` and `schema` check against the gateway from anywhere.
struct SchemaText {
    let bytes: [UInt8]
    /// What errors name: the file's path, or `schema.graphql (built-in)`, which is no file's.
    let name: String

    static let defaultPath = "schema.graphql"
    static let builtInName = "schema.graphql (built-in)"

    /// Reads `--schema` (or `fallbackPath`, when given and `--schema` is not), else the default.
    /// - Throws: `CLIError` when `--schema` has no value or the file cannot be read.
    static func read(_ args: CommandLineArguments, fallbackPath: String? = nil) throws(CLIError) -> SchemaText {
        if let path = try args.value("--schema") ?? fallbackPath {
            return SchemaText(bytes: ConnectorDirectives.adding(to: try readInput(path)), name: path)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: defaultPath, isDirectory: &isDirectory) && !isDirectory.boolValue {
            return SchemaText(bytes: ConnectorDirectives.adding(to: try readInput(defaultPath)), name: defaultPath)
        }
        return SchemaText(bytes: Array(GatewaySchema.sdl.utf8), name: builtInName)
    }

    /// For a schema that declares upstreams or connectors (`@upstream`, `@http`, `@from`),
    /// what the gateway checks before it serves it: every declaration names what exists, and
    /// every field is answered. Other schemas (any project's) are not the gateway's: no check.
    /// - Throws: `CLIError` with every problem as `FILE:LINE:COLUMN: message`, one per line.
    func checkDeclarations(of schema: Schema) throws(CLIError) {
        guard ConnectorSchema.declaresConnectors(schema) else { return }
        do {
            _ = try GatewaySchema.declarations(
                of: schema, source: Source(bytes: bytes, name: name), environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The schema built from the text.
    /// - Throws: `CLIError` with every build error on its own line as `FILE:LINE:COLUMN: message`
    ///   (the SDL rules and schema validation of spec §3).
    func build() throws(CLIError) -> Schema {
        do {
            return try buildSchema(source: Source(bytes: bytes, name: name))
        } catch {
            throw CLIError(error.description)
        }
    }
}
