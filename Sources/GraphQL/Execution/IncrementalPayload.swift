/// One payload of an incremental response: the incremental delivery RFC's response format
/// (graphql-spec branch `incremental-integration`, Section 7 "Response"), as graphql-js 17
/// produces it from `experimentalExecuteIncrementally`.
public enum IncrementalPayload: Sendable {
    /// Nothing was deferred or streamed (no `@defer`/`@stream`, all `if: false`, nothing left
    /// to stream, or the deferred parts were nulled away): the ordinary response, alone.
    case complete(ExecutionResult)
    /// The first payload: `{"data", "errors"?, "pending", "hasNext": true}`.
    case initial(InitialIncrementalResult)
    /// A later payload: `{"hasNext", "pending"?, "incremental"?, "completed"?}`.
    case subsequent(SubsequentIncrementalResult)
}

/// A pending notice `{"id", "path", "label"?}`: a deferred fragment or a stream whose data
/// later payloads deliver; ids are `"0"`, `"1"`, … in announcement order.
public struct PendingNotice: Sendable {
    public let id: String
    /// The position of the object the fragment was spread on, or of the streamed list.
    public let path: [PathComponent]
    public let label: String?
}

/// An incremental entry: `{"id", "data", "subPath"?, "errors"?}` for deferred fields, or
/// `{"id", "items", "errors"?}` for streamed list items.
public struct IncrementalEntry: Sendable {
    public let id: String
    /// The label of the notice `id` names.
    public let label: String?
    /// Where the entry goes: the notice's path plus `subPath` (fields), or the list's path
    /// (items).
    public let path: [PathComponent]
    /// Deferred fields only: the object's position below the notice's path.
    public let subPath: [PathComponent]
    /// Streamed items only: the list index of `items`' first item.
    public let firstIndex: Int?
    /// Field errors raised inside the entry (the nulls they caused are in its data).
    public let errors: [GraphQLError]
    let data: JSONByteBuffer?
    let items: [JSONByteBuffer]

    /// The deferred fields as UTF-8 JSON text (an object); nil for stream items.
    public var dataJSON: [UInt8]? { data?.bytes }
    /// Each streamed item as UTF-8 JSON text; empty for deferred fields.
    public var itemsJSON: [[UInt8]] { items.map(\.bytes) }
}

/// A completion notice `{"id", "errors"?}`: the notice `id` is done. With `errors`, a deferred
/// fragment failed (a null reached its top) and none of its data is delivered, or a stream
/// ended at an item that could not be completed.
public struct CompletedNotice: Sendable {
    public let id: String
    public let label: String?
    public let path: [PathComponent]
    public let errors: [GraphQLError]?
    /// Streams: the index of the first item never delivered (where an error stopped it).
    public let nextIndex: Int?
}

/// The first payload of an incremental stream.
public struct InitialIncrementalResult: Sendable {
    /// `data` without what is deferred or streamed, and the errors raised for it.
    public let result: ExecutionResult
    public let pending: [PendingNotice]
}

/// A later payload of an incremental stream.
public struct SubsequentIncrementalResult: Sendable {
    /// False on the last payload.
    public let hasNext: Bool
    public let pending: [PendingNotice]
    public let incremental: [IncrementalEntry]
    public let completed: [CompletedNotice]
}

extension IncrementalPayload {
    /// The payload as UTF-8 JSON text in the RFC's format, with a top-level `extensions` entry
    /// when `extensions` is not empty (the ordinary response takes it after `data`).
    public func serialized(extensions: JSONObject = JSONObject()) -> [UInt8] {
        switch self {
        case .complete(let result): return result.serialized(extensions: extensions)
        case .initial(let initial): return initial.serialized(extensions: extensions)
        case .subsequent(let subsequent): return subsequent.serialized(extensions: extensions)
        }
    }
}

extension InitialIncrementalResult {
    /// `{"errors"?, "data", "pending", "hasNext": true, "extensions"?}`.
    public func serialized(extensions: JSONObject = JSONObject()) -> [UInt8] {
        var extra = JSONObject()
        extra["pending"] = .array(pending.map(\.json))
        extra["hasNext"] = .bool(true)
        if extensions.count > 0 { extra["extensions"] = .object(extensions) }
        return result.serialized(extensions: JSONObject(), trailing: extra)
    }
}

extension SubsequentIncrementalResult {
    /// `{"hasNext", "pending"?, "incremental"?, "completed"?, "extensions"?}`; empty lists are
    /// left out, as the RFC asks.
    public func serialized(extensions: JSONObject = JSONObject()) -> [UInt8] {
        let out = JSONByteBuffer(capacity: 1024)
        out.appendLiteral("{\"hasNext\":")
        out.write(bool: hasNext)
        if !pending.isEmpty {
            out.appendLiteral(",\"pending\":")
            out.write(.array(pending.map(\.json)))
        }
        if !incremental.isEmpty {
            out.appendLiteral(",\"incremental\":[")
            for (index, entry) in incremental.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                entry.write(to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if !completed.isEmpty {
            out.appendLiteral(",\"completed\":")
            out.write(.array(completed.map(\.json)))
        }
        if extensions.count > 0 {
            out.appendLiteral(",\"extensions\":")
            out.write(.object(extensions))
        }
        out.append(UInt8(ascii: "}"))
        return out.bytes
    }
}

extension PendingNotice {
    var json: JSONValue {
        var object = JSONObject([("id", .string(id)), ("path", pathJSON(path))])
        if let label { object["label"] = .string(label) }
        return .object(object)
    }
}

extension CompletedNotice {
    var json: JSONValue {
        var object = JSONObject([("id", .string(id))])
        if let errors { object["errors"] = .array(errors.map(\.json)) }
        return .object(object)
    }
}

extension IncrementalEntry {
    /// `{"id", "items", "errors"?}` or `{"id", "data", "subPath"?, "errors"?}`; the data text is
    /// copied, never parsed back.
    func write(to out: JSONByteBuffer) {
        out.appendLiteral("{\"id\":")
        out.write(string: id)
        if let data {
            out.appendLiteral(",\"data\":")
            out.append(data)
            if !subPath.isEmpty {
                out.appendLiteral(",\"subPath\":")
                out.write(pathJSON(subPath))
            }
        } else {
            out.appendLiteral(",\"items\":[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(item)
            }
            out.append(UInt8(ascii: "]"))
        }
        if !errors.isEmpty {
            out.appendLiteral(",\"errors\":")
            out.write(.array(errors.map(\.json)))
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// A response path as JSON: keys as strings, indices as numbers.
func pathJSON(_ path: [PathComponent]) -> JSONValue {
    .array(
        path.map { component in
            switch component {
            case .key(let key): .string(key)
            case .index(let index): .int(index)
            }
        })
}
