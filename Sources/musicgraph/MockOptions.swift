import Catalog
import GraphQL
import GraphQLMocks

/// `--mock [--seed N] [--mock-values FILE]`, shared by `exec`, `query` and `serve`: answers
/// from the schema alone (`MockEngine`), with the catalog's id formats when the schema is
/// the gateway's (`CatalogMockProfile`).
enum MockOptions {
    static let names: Set<String> = ["--mock", "--seed", "--mock-values"]

    static let help = """
          --mock                 answer every query from the schema alone, no upstream: deterministic
                                 values per type and field (global ids of the right provider, URLs,
                                 ISO dates, numbers in their documented ranges; lists as long as
                                 `first`); the same seed gives the same bytes on every machine
          --seed N               the mock seed (default 0)
          --mock-values FILE     JSON object of values keyed by Type.field that the mocks use instead
                                 (an object for an object field fixes some of its fields)
        """

    /// The engine `--mock` asks for, or nil without `--mock`.
    /// - Throws: `CLIError` for `--seed`/`--mock-values` without `--mock`, a bad seed, an
    ///   unreadable or invalid values file (naming the entry that does not fit the schema).
    static func engine(_ args: CommandLineArguments, schema: Schema) throws(CLIError) -> MockEngine? {
        guard args.flag("--mock") else {
            let (seed, values) = (try args.value("--seed"), try args.value("--mock-values"))
            if seed != nil || values != nil {
                throw CLIError("--seed and --mock-values need --mock")
            }
            return nil
        }
        let seed: UInt64
        if let text = try args.value("--seed") {
            guard let value = UInt64(text) else {
                throw CLIError("--seed expects a non-negative integer, got '\(text)'")
            }
            seed = value
        } else {
            seed = 0
        }
        var values = MockValues()
        if let path = try args.value("--mock-values") {
            let bytes = try readInput(path)
            let json: JSONValue
            do throws(JSONParseError) {
                json = try JSONReader.parse(bytes)
            } catch {
                throw CLIError("\(path): \(error)")
            }
            do throws(MockValuesError) {
                values = try MockValues(json: json, schema: schema)
            } catch {
                throw CLIError("\(path): \(error.message)")
            }
        }
        let profile: any MockProfile =
            CatalogMockProfile.applies(to: schema) ? CatalogMockProfile() : GenericMockProfile()
        return MockEngine(schema: schema, seed: seed, values: values, profile: profile)
    }
}
