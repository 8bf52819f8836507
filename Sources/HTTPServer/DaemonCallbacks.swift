import CMicroHTTPD
import HTTPTypes

/// The bodies of libmicrohttpd's callbacks. `cls` is always the `DaemonState` (unretained) and
/// `*con_cls` the request's `RequestContext` (retained by `uriSeen`, released by `completed`).
enum DaemonCallbacks {
    /// `MHD_OPTION_URI_LOG_CALLBACK`: the first sight of a request; its result becomes `*con_cls`.
    static func uriSeen(
        cls: UnsafeMutableRawPointer?, uri: UnsafePointer<CChar>?, connection: OpaquePointer?
    ) -> UnsafeMutableRawPointer? {
        guard let cls, let connection else { return nil }
        let daemon = Unmanaged<DaemonState>.fromOpaque(cls).takeUnretainedValue()
        let watched = mg_mhd_connection_socket_context(connection).map {
            Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue()
        }
        watched?.requestLineReceived(at: ConnectionWatchdog.now())
        let context = RequestContext(
            rawTarget: uri.map { String(cString: $0) } ?? "/", connection: ConnectionHandle(raw: connection),
            watched: watched, maxBodyBytes: daemon.configuration.maxBodyBytes,
            handlerAnswersOversizedBodies: daemon.configuration.handlerAnswersOversizedBodies)
        daemon.requestStarted()
        return Unmanaged.passRetained(context).toOpaque()
    }

    /// `MHD_AccessHandlerCallback`: see `RequestLifecycle` for the order of calls.
    static func access(
        cls: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?,
        conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
        guard let cls, let connection, let uploadDataSize, let conCls else { return .NO }
        let daemon = Unmanaged<DaemonState>.fromOpaque(cls).takeUnretainedValue()
        // The URI callback always sets *con_cls; a nil here would be a libmicrohttpd change.
        guard let opaqueContext = conCls.pointee else { return .NO }
        let context = Unmanaged<RequestContext>.fromOpaque(opaqueContext).takeUnretainedValue()

        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            context.receiveBody(UnsafeRawBufferPointer(start: uploadData, count: chunkSize))
            uploadDataSize.pointee = 0
            return .YES
        }
        let action = context.called(contentLength: contentLength(of: connection))
        switch action {
        case .proceed:
            return .YES
        case .respond(let response):
            return queue(response, on: connection, daemon: daemon)
        case .handle, .handleOversized:
            let oversized = action == .handleOversized
            let body = context.takeBody()
            let request = HTTPRequest(
                method: HTTPMethod(rawValue: method.map { String(cString: $0) } ?? "GET"),
                path: path(decoded: url, rawTarget: context.rawTarget),
                rawQuery: String(context.rawQuery), headers: headers(of: connection), body: oversized ? [] : body,
                bodyExceededLimit: oversized, abandonment: context.abandonment,
                clientAddress: mg_mhd_connection_client_address(connection).flatMap(ClientAddress.init))
            guard let response = daemon.handle(context, request: request) else { return .YES }  // suspended
            return queue(response, on: connection, daemon: daemon)
        }
    }

    /// The request's path as libmicrohttpd decoded it, unless the client sent an encoded NUL
    /// (`%00`) in it: the decoded C string would end there, and `/graphql%00.php` would be
    /// served as `/graphql`. Such a path is kept as sent (still encoded), which names no route.
    static func path(decoded url: UnsafePointer<CChar>?, rawTarget: String) -> String {
        let rawPath = rawTarget.utf8.prefix { $0 != UInt8(ascii: "?") }
        var matched = 0  // bytes of "%00" matched so far
        for byte in rawPath {
            switch (matched, byte) {
            case (_, UInt8(ascii: "%")): matched = 1
            case (1, UInt8(ascii: "0")), (2, UInt8(ascii: "0")): matched += 1
            default: matched = 0
            }
            if matched == 3 { return String(decoding: rawPath, as: UTF8.self) }
        }
        return url.map { String(cString: $0) } ?? "/"
    }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (answered, failed or dropped).
    static func completed(cls: UnsafeMutableRawPointer?, conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let cls, let conCls, let opaqueContext = conCls.pointee else { return }
        conCls.pointee = nil
        let daemon = Unmanaged<DaemonState>.fromOpaque(cls).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(opaqueContext).takeRetainedValue()
        context.watched?.requestCompleted(at: ConnectionWatchdog.now())
        daemon.requestCompleted(context)
    }

    /// `MHD_OPTION_NOTIFY_CONNECTION`: a TCP connection was accepted or is about to be closed
    /// (always before its socket is). `*socketContext` holds its `WatchedConnection`, retained in
    /// between.
    static func connectionNotified(
        cls: UnsafeMutableRawPointer?, connection: OpaquePointer?,
        socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, code: MHD_ConnectionNotificationCode
    ) {
        guard let cls, let connection, let socketContext else { return }
        let daemon = Unmanaged<DaemonState>.fromOpaque(cls).takeUnretainedValue()
        if code == .CONNECTION_NOTIFY_STARTED {
            let address = mg_mhd_connection_client_address(connection).flatMap(ClientAddress.init)
            let watched = daemon.watchdog.connectionStarted(
                fd: mg_mhd_connection_fd(connection), address: address, at: ConnectionWatchdog.now())
            socketContext.pointee = Unmanaged.passRetained(watched).toOpaque()
        } else if code == .CONNECTION_NOTIFY_CLOSED {
            guard let opaque = socketContext.pointee else { return }
            socketContext.pointee = nil
            daemon.watchdog.connectionClosed(Unmanaged<WatchedConnection>.fromOpaque(opaque).takeRetainedValue())
        }
    }

    // MARK: - Helpers

    private static func contentLength(of connection: OpaquePointer) -> Int? {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else {
            return nil
        }
        return Int(String(cString: value))
    }

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
                        name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                    return .YES
                }, pointer)
        }
        return headers
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, daemon: DaemonState)
        -> MHD_Result
    {
        let created: OpaquePointer?
        if let stream = response.bodyStream {
            created = streamedResponse(stream, on: connection, daemon: daemon)
        } else {
            created = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers where !HTTPHeaders.namesMatch(field.name, "Content-Length") {
            // withCString reads a native string in place; passing the String converted each to a
            // new C array (two allocations per header).
            _ = field.name.withCString { name in
                field.value.withCString { value in MHD_add_response_header(created, name, value) }
            }
        }
        if daemon.isDraining {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        // libmicrohttpd refuses codes outside 100...999 by dropping the connection; a handler bug
        // should cost the client a 500, not a reset.
        let status = (100...999).contains(response.status.code) ? response.status.code : 500
        return MHD_queue_response(connection, UInt32(status), created)
    }

    /// A response of unknown size (chunked) whose bytes `stream` gives as they are written. The
    /// stream is retained for libmicrohttpd until it calls the free callback.
    private static func streamedResponse(_ stream: HTTPBodyStream, on connection: OpaquePointer, daemon: DaemonState)
        -> OpaquePointer?
    {
        let watched = mg_mhd_connection_socket_context(connection).map {
            Unmanaged<WatchedConnection>.fromOpaque($0).takeUnretainedValue()
        }
        stream.attach(
            HTTPBodyStream.Attachment(connection: ConnectionHandle(raw: connection), watched: watched, daemon: daemon))
        let box = Unmanaged.passRetained(StreamBox(stream: stream, daemon: daemon)).toOpaque()
        // 16 KiB per read: a part of an incremental answer is usually smaller, and one read then
        // sends it whole.
        let created = MHD_create_response_from_callback(
            UInt64.max, 16 << 10,
            { cls, _, buffer, max in
                guard let cls, let buffer else { return -2 }
                return Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue().stream.read(into: buffer, max: max)
            }, box,
            { cls in
                guard let cls else { return }
                let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
                box.daemon.streamReleased(box.stream)
            })
        guard created != nil else {
            Unmanaged<StreamBox>.fromOpaque(box).release()
            stream.abandon(.shutdown)
            return nil
        }
        daemon.streamQueued(stream)
        return created
    }
}

/// What a streamed response's callbacks get as their `cls`.
private final class StreamBox: Sendable {
    let stream: HTTPBodyStream
    let daemon: DaemonState

    init(stream: HTTPBodyStream, daemon: DaemonState) {
        self.stream = stream
        self.daemon = daemon
    }
}
