import Catalog
import FuzzSupport

/// Apple Music API decoders: any status and body decode or give an `UpstreamError`.
private func fuzzAppleMusic(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let input = DecoderInput(data, size, decoderCount: 6) else { return 0 }
    let (status, headers, body) = (input.status, input.headers, input.body)
    switch input.decoder {
    case 0: _ = try? AppleMusicProvider.decodeSearch(status: status, headers: headers, body: body)
    case 1: _ = try? AppleMusicProvider.decodeAlbums(status: status, headers: headers, body: body)
    case 2: _ = try? AppleMusicProvider.decodeArtists(status: status, headers: headers, body: body)
    case 3: _ = try? AppleMusicProvider.decodeSongs(status: status, headers: headers, body: body)
    case 4: _ = try? AppleMusicProvider.decodeTracksPage(status: status, headers: headers, body: body)
    default: _ = try? AppleMusicProvider.decodeAlbumsPage(status: status, headers: headers, body: body)
    }
    return 0
}

runFuzzer { fuzzAppleMusic($0, $1) }
