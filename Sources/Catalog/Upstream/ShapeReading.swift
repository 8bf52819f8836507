import GraphQL

/// Members of a `JSONReader` value read as a Codable model's `decodeIfPresent` reads them
/// (`JSONValueDecoder`), for the decoders that skip Codable (`ITunesRecordReader`,
/// `YouTubeSearchReader`): absent or null is nil; a value of another type is `ShapeMismatch`,
/// on which those decoders answer nil and the Codable path decodes the body and names what is
/// wrong, so errors stay what they were.
enum ShapeReading {
    /// A value of another type than the model declares.
    struct ShapeMismatch: Error {}

    static func string(_ value: JSONValue?) throws(ShapeMismatch) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ShapeMismatch()
        }
    }

    /// An `Int`: any number it holds exactly (`3.0` too, as `JSONValueDecoder`).
    static func int(_ value: JSONValue?) throws(ShapeMismatch) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .int(let number)?: return number
        case .double(let number)?:
            guard let exact = Int(exactly: number) else { throw ShapeMismatch() }
            return exact
        default: throw ShapeMismatch()
        }
    }

    static func object(_ value: JSONValue?) throws(ShapeMismatch) -> JSONObject? {
        switch value {
        case nil, .null?: return nil
        case .object(let object)?: return object
        default: throw ShapeMismatch()
        }
    }
}
