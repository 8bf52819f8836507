import FuzzSupport
import GraphQL

/// Lexer and parser: any bytes either parse or give a `GraphQLError`; a parsed document
/// printed (graphql-js `print`) parses again and prints the same text.
private func fuzzParse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let source = Source(bytes: fuzzBytes(data, size))
    guard let document = try? parse(source) else { return 0 }
    let printed = print(document)
    let reparsed: Document
    do {
        reparsed = try parse(printed)
    } catch {
        fatalError("the printed document does not parse: \(error)\n\(printed)")
    }
    fuzzCheck(print(reparsed) == printed, "print is not stable:\n\(printed)\n---\n\(print(reparsed))")
    return 0
}

runFuzzer { fuzzParse($0, $1) }
