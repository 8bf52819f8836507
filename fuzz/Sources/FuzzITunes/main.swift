import Catalog
import FuzzSupport

/// iTunes Search API decoders: any status and body decode or give an `UpstreamError`.
private func fuzzITunes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard let input = DecoderInput(data, size, decoderCount: 6) else { return 0 }
    let (status, headers, body) = (input.status, input.headers, input.body)
    switch input.decoder {
    case 0: _ = try? ITunesProvider.decodeArtists(status: status, headers: headers, body: body)
    case 1: _ = try? ITunesProvider.decodeAlbums(status: status, headers: headers, body: body)
    case 2: _ = try? ITunesProvider.decodeTracks(status: status, headers: headers, body: body)
    case 3: _ = try? ITunesProvider.decodeMusicVideos(status: status, headers: headers, body: body)
    case 4: _ = try? ITunesProvider.decodeAlbumsByArtist(status: status, headers: headers, body: body)
    default: _ = try? ITunesProvider.decodeTracksByAlbum(status: status, headers: headers, body: body)
    }
    return 0
}

runFuzzer { fuzzITunes($0, $1) }
