import FuzzSupport
import GraphQL

/// The JSON reader: any bytes either read or give a `JSONParseError` inside the input; a
/// value read and written by `JSONWriter` reads again and writes the same bytes. (Not the same
/// value: the writer prints integral doubles as JavaScript does, `4.0` as `4`, which reads as
/// an int.)
private func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = fuzzBytes(data, size)
    let value: JSONValue
    do {
        value = try JSONReader.parse(bytes)
    } catch {
        fuzzCheck(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) of \(bytes.count)")
        return 0
    }
    var writer = JSONWriter()
    writer.write(value)
    let written = writer.bytes
    do {
        var again = JSONWriter()
        again.write(try JSONReader.parse(written))
        fuzzCheck(
            again.bytes == written, "write/read/write changed the text: \(String(decoding: written, as: UTF8.self))")
    } catch {
        fatalError("written JSON does not read: \(error)\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}

runFuzzer { fuzzJSON($0, $1) }
