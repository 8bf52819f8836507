// Construction options are checked once, one function per option (graphql/dataloader's
// `getValid…` helpers), so a misconfigured loader fails at start-up, not mid-request.

/// The loader's name: used in every error message, so it must be non-empty and one line.
@usableFromInline
func validName(_ name: String) throws(DataLoaderError) -> String {
    guard !name.isEmpty else {
        throw .invalidOption("name", loader: name, "must not be empty")
    }
    // Printable ASCII (every name in use) holds no line break: no need to walk its characters.
    if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return name }
    guard !name.contains(where: { $0.isNewline }) else {
        throw .invalidOption("name", loader: name, "must be a single line")
    }
    return name
}

/// Distinct keys per batch function call: at least 1; `Int.max` means no limit.
@usableFromInline
func validMaxBatchSize(_ size: Int, loader name: String) throws(DataLoaderError) -> Int {
    guard size >= 1 else {
        throw .invalidOption(
            "maxBatchSize", loader: name, "must be at least 1 (Int.max for no limit), got \(size)")
    }
    return size
}
