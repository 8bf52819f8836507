import Catalog
import FuzzSupport

/// Rakuten Books CD search decoder: any status and body decode or give an `UpstreamError`.
private func fuzzRakuten(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let input = DecoderInput(data, size, decoderCount: 1) else { return 0 }
    _ = try? RakutenProvider.decodeSearch(status: input.status, headers: input.headers, body: input.body)
    return 0
}

runFuzzer { fuzzRakuten($0, $1) }
