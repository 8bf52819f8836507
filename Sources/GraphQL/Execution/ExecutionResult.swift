/// The response of one execution (spec §7.1 "Response Format").
///
/// `dataJSON` holds the `data` entry as UTF-8 JSON text, written by the executor as it
/// ran: nil when execution did not start (a request error: no `data` key at all, spec
/// §7.1.1), `null` when it started and a non-null root field failed (or the schema has no
/// root type for the operation). `errors` are in the order they were raised.
public struct ExecutionResult: Sendable {
  public var dataJSON: [UInt8]?
  public var errors: [GraphQLError]

  public init(dataJSON: [UInt8]?, errors: [GraphQLError] = []) {
    self.dataJSON = dataJSON
    self.errors = errors
  }

  public init(data: JSONValue?, errors: [GraphQLError] = []) {
    self.init(dataJSON: data.map(JSONWriter.serialize), errors: errors)
  }

  /// `data` as a JSON value (parsed from `dataJSON`; numbers come back as JSON has them:
  /// a Float that is integral reads as `.int`).
  public var data: JSONValue? {
    guard let dataJSON else { return nil }
    return (try? JSONReader.parse(dataJSON)) ?? .null
  }

  /// True for a request error (execution never started): the CLI's exit status 1.
  public var isRequestError: Bool { dataJSON == nil }

  /// The response map: `errors` (when any) then `data` (when present), graphql-js's order.
  public var json: JSONValue {
    var response = JSONObject()
    if !errors.isEmpty { response["errors"] = .array(errors.map(\.json)) }
    if let data { response["data"] = data }
    return .object(response)
  }

  /// The response as UTF-8 JSON text, in `json`'s key order.
  public func serialized() -> [UInt8] {
    let buffer = JSONByteBuffer(capacity: (dataJSON?.count ?? 0) + 64)
    buffer.append(UInt8(ascii: "{"))
    if !errors.isEmpty {
      buffer.appendLiteral("\"errors\":")
      buffer.write(.array(errors.map(\.json)))
    }
    if let dataJSON {
      if !errors.isEmpty { buffer.append(UInt8(ascii: ",")) }
      buffer.appendLiteral("\"data\":")
      buffer.append(dataJSON)
    }
    buffer.append(UInt8(ascii: "}"))
    return buffer.bytes
  }
}
