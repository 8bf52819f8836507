import FuzzSchema
import FuzzSupport
import GraphQL

/// The validator: every parsed document validates against schema.graphql to a list of
/// errors, each with a message and a location inside the document.
private func fuzzValidate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let source = Source(bytes: fuzzBytes(data, size))
    guard let document = try? parse(source, options: ParseOptions(maxTokens: ParseOptions.serverMaxTokens))
    else { return 0 }
    let errors = validate(schema: gatewaySchema, document: document, source: source)
    for error in errors {
        fuzzCheck(!error.message.isEmpty, "a validation error without a message")
    }
    return 0
}

// Built before the first input: LeakSanitizer counts what an input allocates and keeps.
_ = gatewaySchema
runFuzzer { fuzzValidate($0, $1) }
