import Catalog
import FuzzSupport

/// TMDB decoders: any status and body decode or give an `UpstreamError`.
private func fuzzTMDB(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let input = DecoderInput(data, size, decoderCount: 3) else { return 0 }
    let (status, headers, body) = (input.status, input.headers, input.body)
    switch input.decoder {
    case 0: _ = try? TMDBProvider.decodeSearch(status: status, headers: headers, body: body)
    case 1: _ = try? TMDBProvider.decodeMovie(status: status, headers: headers, body: body)
    default: _ = try? TMDBProvider.decodeVideos(status: status, headers: headers, body: body)
    }
    return 0
}

runFuzzer { fuzzTMDB($0, $1) }
