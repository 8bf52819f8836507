/// The response of one execution (spec §7.1 "Response Format").
///
/// `data` is nil when execution did not start (a request error: no `data` key at all,
/// spec §7.1.1), `.null` when it started and a non-null root field failed (or the schema
/// has no root type for the operation); `errors` in the order they were raised.
public struct ExecutionResult: Sendable {
  public var data: JSONValue?
  public var errors: [GraphQLError]

  public init(data: JSONValue?, errors: [GraphQLError] = []) {
    self.data = data
    self.errors = errors
  }

  /// True for a request error (execution never started): the CLI's exit status 1.
  public var isRequestError: Bool { data == nil }

  /// The response map: `errors` (when any) then `data` (when present), graphql-js's order.
  public var json: JSONValue {
    var response = JSONObject()
    if !errors.isEmpty { response["errors"] = .array(errors.map(\.json)) }
    if let data { response["data"] = data }
    return .object(response)
  }

  /// `json` as UTF-8 JSON text.
  public func serialized() -> [UInt8] {
    var writer = JSONWriter(reservingCapacity: 4096)
    writer.write(json)
    return writer.bytes
  }
}
