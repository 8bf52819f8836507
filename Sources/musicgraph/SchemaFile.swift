import GraphQL

/// Reads and builds the schema of a `--schema FILE` option, for every command that takes one.
/// - Throws: `CLIError` when the file cannot be read, or with every build error on its own
///   line as `FILE:LINE:COLUMN: message` (the SDL rules and schema validation of spec §3).
func loadSchema(_ path: String) throws(CLIError) -> Schema {
    let bytes = try readInput(path)
    do {
        return try buildSchema(source: Source(bytes: bytes, name: path))
    } catch {
        throw CLIError(error.description)
    }
}
