extension IncrementalPayload {
    /// The payload in the older incremental format that Apollo Router and Apollo Client's
    /// `Defer20220824Handler` speak (GraphQL over HTTP `multipart/mixed; deferSpec=20220824`,
    /// graphql-js 17.0.0-alpha.2): no ids, no `pending` and no `completed`; every entry says
    /// where it goes.
    ///
    /// - initial: `{"errors"?, "data", "hasNext": true, "extensions"?}`;
    /// - later: `{"hasNext", "incremental"?: [...], "extensions"?}`, whose entries are
    ///   `{"data", "path", "label"?, "errors"?}` for deferred fields (`path`: the object the
    ///   fields belong to) and `{"items", "path", "label"?, "errors"?}` for streamed items (`path`:
    ///   the list's path and the first item's index). A deferred fragment that failed (a null
    ///   reached its top) is `{"data": null, "path", "label"?, "errors"}`, a stream ended by an
    ///   item that could not be completed `{"items": null, "path", "label"?, "errors"}`.
    /// - `.complete`: the ordinary response.
    public func serializedDefer20220824(extensions: JSONObject = JSONObject()) -> [UInt8] {
        switch self {
        case .complete(let result):
            return result.serialized(extensions: extensions)
        case .initial(let initial):
            return initial.result.serialized(extensions: extensions, trailing: JSONObject([("hasNext", .bool(true))]))
        case .subsequent(let subsequent):
            return subsequent.serializedDefer20220824(extensions: extensions)
        }
    }
}

extension SubsequentIncrementalResult {
    fileprivate func serializedDefer20220824(extensions: JSONObject) -> [UInt8] {
        let out = JSONByteBuffer(capacity: 1024)
        out.appendLiteral("{\"hasNext\":")
        out.write(bool: hasNext)
        let failures = completed.filter { $0.errors != nil }
        if !incremental.isEmpty || !failures.isEmpty {
            out.appendLiteral(",\"incremental\":[")
            var first = true
            for entry in incremental {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                entry.writeDefer20220824(to: out)
            }
            for failure in failures {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                failure.writeDefer20220824(to: out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if extensions.count > 0 {
            out.appendLiteral(",\"extensions\":")
            out.write(.object(extensions))
        }
        out.append(UInt8(ascii: "}"))
        return out.bytes
    }
}

extension IncrementalEntry {
    fileprivate func writeDefer20220824(to out: JSONByteBuffer) {
        if let data {
            out.appendLiteral("{\"data\":")
            out.append(data)
            out.appendLiteral(",\"path\":")
            out.write(pathJSON(path))
        } else {
            out.appendLiteral("{\"items\":[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(item)
            }
            out.appendLiteral("],\"path\":")
            out.write(pathJSON(path + [.index(firstIndex ?? 0)]))
        }
        writeLabelAndErrors(label: label, errors: errors, to: out)
        out.append(UInt8(ascii: "}"))
    }
}

extension CompletedNotice {
    /// A failed fragment or stream as the older format has it: its data (or items) null.
    fileprivate func writeDefer20220824(to out: JSONByteBuffer) {
        if let nextIndex {
            out.appendLiteral("{\"items\":null,\"path\":")
            out.write(pathJSON(path + [.index(nextIndex)]))
        } else {
            out.appendLiteral("{\"data\":null,\"path\":")
            out.write(pathJSON(path))
        }
        writeLabelAndErrors(label: label, errors: errors ?? [], to: out)
        out.append(UInt8(ascii: "}"))
    }
}

private func writeLabelAndErrors(label: String?, errors: [GraphQLError], to out: JSONByteBuffer) {
    if let label {
        out.appendLiteral(",\"label\":")
        out.write(string: label)
    }
    if !errors.isEmpty {
        out.appendLiteral(",\"errors\":")
        out.write(.array(errors.map(\.json)))
    }
}
