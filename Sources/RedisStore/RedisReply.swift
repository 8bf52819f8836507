import CHiredis
import SharedState

/// One Redis reply (RESP2), copied out of hiredis's `redisReply` so that it can leave the
/// connection's thread.
enum RedisReply: Sendable, Equatable {
    case string([UInt8])
    case integer(Int64)
    case array([RedisReply])
    case null
    /// A status reply such as `OK`.
    case status(String)
    /// An error reply such as `ERR …` or `NOSCRIPT …`.
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        func bytes() -> [UInt8] {
            guard let str = r.str, r.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: str, count: Int(r.len)))
        }
        switch r.type {
        case REDIS_REPLY_STRING: self = .string(bytes())
        case REDIS_REPLY_INTEGER: self = .integer(Int64(r.integer))
        case REDIS_REPLY_ARRAY:
            var items: [RedisReply] = []
            items.reserveCapacity(Int(r.elements))
            for index in 0..<Int(r.elements) {
                if let element = r.element[index] { items.append(RedisReply(element)) } else { items.append(.null) }
            }
            self = .array(items)
        case REDIS_REPLY_STATUS: self = .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: self = .error(String(decoding: bytes(), as: UTF8.self))
        default: self = .null
        }
    }

    /// The integer of an integer reply, or of a string reply holding one.
    var int: Int? {
        switch self {
        case .integer(let value): Int(value)
        case .string(let bytes): Int(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }
}
