/// The response of one execution (spec §7.1 "Response Format").
///
/// The `data` entry is held as the JSON text the executor wrote while it ran
/// (`dataJSON`): nil when execution did not start (a request error: no `data` key at
/// all, spec §7.1.1), `null` when it started and a non-null root field failed (or the
/// schema has no root type for the operation). `errors` are in the order they were raised.
public struct ExecutionResult: Sendable {
    /// The executor's output buffer, never written again once in a result.
    private let dataBuffer: JSONByteBuffer?
    public var errors: [GraphQLError]

    init(dataBuffer: JSONByteBuffer?, errors: [GraphQLError]) {
        self.dataBuffer = dataBuffer
        self.errors = errors
    }

    /// A result from `data` given as JSON text.
    public init(dataJSON: [UInt8]?, errors: [GraphQLError] = []) {
        self.init(
            dataBuffer: dataJSON.map { bytes in
                let buffer = JSONByteBuffer(capacity: bytes.count)
                buffer.append(bytes)
                return buffer
            }, errors: errors)
    }

    public init(data: JSONValue?, errors: [GraphQLError] = []) {
        self.init(dataJSON: data.map(JSONWriter.serialize), errors: errors)
    }

    /// The `data` entry as UTF-8 JSON text; nil when there is none.
    public var dataJSON: [UInt8]? { dataBuffer?.bytes }

    /// `data` as a JSON value (parsed from the JSON text, so an integral Float reads back
    /// as `.int`).
    public var data: JSONValue? {
        guard let dataJSON else { return nil }
        return (try? JSONReader.parse(dataJSON)) ?? .null
    }

    /// True for a request error (execution never started): the CLI's exit status 1.
    public var isRequestError: Bool { dataBuffer == nil }

    /// The response map: `errors` (when any) then `data` (when present), graphql-js's order.
    public var json: JSONValue {
        var response = JSONObject()
        if !errors.isEmpty { response["errors"] = .array(errors.map(\.json)) }
        if let data { response["data"] = data }
        return .object(response)
    }

    /// The response as UTF-8 JSON text, in `json`'s key order; the data text is copied once.
    public func serialized() -> [UInt8] {
        serialized(extensions: JSONObject())
    }

    /// The response as UTF-8 JSON text with a top-level `extensions` entry after `errors` and
    /// `data` (spec §7.1 "Response Format"; omitted when `extensions` is empty). The data text
    /// is copied once, never parsed back.
    public func serialized(extensions: JSONObject) -> [UInt8] {
        serialized(extensions: extensions, trailing: JSONObject())
    }

    /// `serialized(extensions:)` with `trailing`'s entries between `data` and `extensions` (an
    /// incremental initial payload's `pending` and `hasNext`).
    func serialized(extensions: JSONObject, trailing: JSONObject) -> [UInt8] {
        let head = JSONByteBuffer(capacity: 256)
        head.append(UInt8(ascii: "{"))
        if !errors.isEmpty {
            head.appendLiteral("\"errors\":")
            head.write(.array(errors.map(\.json)))
        }
        if dataBuffer != nil {
            if !errors.isEmpty { head.append(UInt8(ascii: ",")) }
            head.appendLiteral("\"data\":")
        }
        let tail = JSONByteBuffer(capacity: 128)
        for (key, value) in trailing.entries {
            if !errors.isEmpty || dataBuffer != nil || tail.count > 0 { tail.append(UInt8(ascii: ",")) }
            tail.write(string: key)
            tail.append(UInt8(ascii: ":"))
            tail.write(value)
        }
        if extensions.count > 0 {
            if !errors.isEmpty || dataBuffer != nil { tail.append(UInt8(ascii: ",")) }
            tail.appendLiteral("\"extensions\":")
            tail.write(.object(extensions))
        }
        tail.append(UInt8(ascii: "}"))
        let dataCount = dataBuffer?.count ?? 0
        let total = head.count + dataCount + tail.count
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            guard let base = out.baseAddress else { return }
            base.update(from: head.pointer, count: head.count)
            if let dataBuffer { (base + head.count).update(from: dataBuffer.pointer, count: dataCount) }
            (base + head.count + dataCount).update(from: tail.pointer, count: tail.count)
            initialized = total
        }
    }
}
