import Catalog
import FuzzSupport

/// YouTube Data API decoders: any status and body decode or give an `UpstreamError`.
private func fuzzYouTube(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let input = DecoderInput(data, size, decoderCount: 2) else { return 0 }
    let (status, headers, body) = (input.status, input.headers, input.body)
    switch input.decoder {
    case 0: _ = try? YouTubeProvider.decodeSearch(status: status, headers: headers, body: body)
    default: _ = try? YouTubeProvider.decodeVideos(status: status, headers: headers, body: body)
    }
    return 0
}

runFuzzer { fuzzYouTube($0, $1) }
