import CCurl
import Glibc
import HTTPTypes

/// What one libcurl transfer ended with.
enum TransferOutcome: Sendable {
    case completed(status: Int, headers: HTTPHeaders, body: [UInt8])
    case failed(code: Int, message: String)
    case tooLarge
    case cancelled
}

/// One libcurl easy handle and the buffers its callbacks fill.
///
/// `@unchecked Sendable`: after `CurlMultiLoop.start` hands it over, only the loop thread touches
/// the handle and the buffers (libcurl calls the callbacks on that thread); the submitting task
/// sets `continuation` before the hand-over, which goes through the loop's mutex. Cancellation
/// reaches it as a command through the same mutex.
final class CurlTransfer: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    /// libcurl writes its message here on failure; malloc'ed because libcurl keeps the pointer
    /// for the handle's lifetime, which a Swift array's storage does not guarantee.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body: [UInt8] = []
    private var headers = HTTPHeaders()
    private let maxResponseBytes: Int
    private var exceededLimit = false

    /// Resumed exactly once, by the loop thread, through `finish`.
    var continuation: CheckedContinuation<TransferOutcome, Never>?
    /// Where the transfer stands; only the loop thread reads or changes it.
    var lifecycle = TransferLifecycle()

    /// Configures a transfer; nil if libcurl cannot allocate a handle.
    init?(
        request: HTTPClientRequest, timeoutMs: Int, connectTimeoutMs: Int, maxResponseBytes: Int, userAgent: String
    ) {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        self.maxResponseBytes = maxResponseBytes
        let errorSize = Int(CURL_ERROR_SIZE)
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: errorSize)
        errorBuffer.initialize(repeating: 0, count: errorSize)
        configure(request: request, timeoutMs: timeoutMs, connectTimeoutMs: connectTimeoutMs, userAgent: userAgent)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func configure(request: HTTPClientRequest, timeoutMs: Int, connectTimeoutMs: Int, userAgent: String) {
        setString(CURLOPT_URL, request.url)
        // Only web protocols, whatever URL a provider builds; TLS verification stays libcurl's default (on).
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_NOSIGNAL, 1)
        setString(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl can decode
        setLong(CURLOPT_TIMEOUT_MS, max(1, timeoutMs))
        setLong(CURLOPT_CONNECTTIMEOUT_MS, max(1, connectTimeoutMs))
        setString(CURLOPT_USERAGENT, userAgent)
        // h2 where TLS negotiates it (ALPN), else HTTP/1.1. Over TLS, a transfer started while the
        // host's first connection is still handshaking waits for it and multiplexes on it rather
        // than opening a connection of its own; plain http:// cannot multiplex, so it never waits.
        setLong(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        if request.url.prefix(6).lowercased() == "https:" { setLong(CURLOPT_PIPEWAIT, 1) }
        _ = mg_curl_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxResponseBytes))
        _ = mg_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)

        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = mg_curl_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = mg_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = mg_curl_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = mg_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)

        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            list = curl_slist_append(list, "\(field.name): \(field.value)")
        }
        // Never wait for a 100 Continue: our bodies are small and our servers answer directly.
        list = curl_slist_append(list, "Expect:")
        headerList = list
        _ = mg_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list)

        switch request.method {
        case "GET":
            break
        case "HEAD":
            setLong(CURLOPT_NOBODY, 1)
        case "POST":
            setLong(CURLOPT_POST, 1)
        default:
            setString(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if let body = request.body {
            _ = mg_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // COPYPOSTFIELDS: libcurl keeps its own copy, so the Swift array need not outlive this call.
            body.withUnsafeBytes { bytes in
                _ = mg_curl_easy_setopt_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))
            }
        }
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
        _ = mg_curl_easy_setopt_long(easy, option, value)
    }

    private func setString(_ option: CURLoption, _ value: String) {
        _ = value.withCString { mg_curl_easy_setopt_pointer(easy, option, $0) }  // libcurl copies strings
    }

    // MARK: - Callbacks (loop thread)

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        guard body.count + chunk.count <= maxResponseBytes else {
            exceededLimit = true
            return 0  // anything but chunk.count makes libcurl abort with CURLE_WRITE_ERROR
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    private func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        // Trim CR LF as bytes: as Characters, "\r\n" is one grapheme and matches neither.
        var end = line.count
        while end > 0, line[end - 1] == 13 || line[end - 1] == 10 {
            end -= 1
        }
        let bytes = UnsafeRawBufferPointer(rebasing: line[..<end])
        // An ASCII line (every real one) is split as bytes: as a Substring of Characters, the
        // header lines were a tenth of a cold nested query's CPU (6 per response, 153 responses).
        if bytes.allSatisfy({ $0 < 0x80 }) {
            if bytes.starts(with: "HTTP/".utf8) {
                headers = HTTPHeaders()  // a new response (after a 1xx): forget the previous fields
            } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                var start = colon + 1
                while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") {
                    start += 1
                }
                headers.add(
                    name: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self),
                    value: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            }
            return line.count
        }
        let text = Substring(String(decoding: bytes, as: UTF8.self))
        if text.hasPrefix("HTTP/") {
            headers = HTTPHeaders()  // a new response (after a 1xx): forget the previous fields
        } else if let colon = text.firstIndex(of: ":") {
            let value = text[text.index(after: colon)...].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            headers.add(name: String(text[..<colon]), value: String(value))
        }
        return line.count
    }

    // MARK: - Completion (loop thread)

    /// Resumes the waiting task with the transfer's result; `code` is libcurl's result.
    func finish(code: CURLcode) {
        let outcome: TransferOutcome
        if code == CURLE_OK {
            var status = 0
            _ = mg_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            outcome = .completed(status: status, headers: headers, body: body)
            body = []
        } else if (code == CURLE_WRITE_ERROR && exceededLimit) || code == CURLE_FILESIZE_EXCEEDED {
            outcome = .tooLarge
        } else {
            let message = String(cString: errorBuffer)
            outcome = .failed(
                code: Int(code.rawValue), message: message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            )
        }
        finish(outcome)
    }

    func finish(_ outcome: TransferOutcome) {
        let waiting = continuation
        continuation = nil
        waiting?.resume(returning: outcome)
    }
}
