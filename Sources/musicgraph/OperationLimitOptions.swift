import GraphQL

/// The operation limit options, one set for `serve` (which enforces them) and `validate`
/// (which checks the same limits statically, so CI refuses what production would refuse).
enum OperationLimitOptions {
    static let names: Set<String> = [
        "--max-depth", "--max-aliases", "--max-root-fields", "--max-directives", "--no-introspection",
    ]

    static let help = """
          --max-depth N          deepest field nesting (default 15; 0 = none)     MAX_DEPTH_LIMIT
          --max-aliases N        aliased fields per operation (default 15; 0 = none)  MAX_ALIASES_LIMIT
          --max-root-fields N    root fields per operation (default 20; 0 = none) MAX_ROOT_FIELDS_LIMIT
          --max-directives N     directives on one field (default 10; 0 = none)   MAX_DIRECTIVES_LIMIT
          --no-introspection     refuse __schema and __type                       INTROSPECTION_DISABLED
        """

    /// `base` with the options given in `args` applied.
    /// - Throws: `CLIError` for a value that is not a non-negative integer.
    static func limits(_ args: CommandLineArguments, over base: OperationLimits) throws(CLIError) -> OperationLimits {
        var limits = base
        if let value = try args.int("--max-depth") { limits.maxDepth = value }
        if let value = try args.int("--max-aliases") { limits.maxAliases = value }
        if let value = try args.int("--max-root-fields") { limits.maxRootFields = value }
        if let value = try args.int("--max-directives") { limits.maxDirectives = value }
        if args.flag("--no-introspection") { limits.introspection = false }
        return limits
    }
}
