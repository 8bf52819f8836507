import GraphQL

/// Search and lookup bodies read straight from the engine's `JSONReader` value, without
/// Codable: a cold nested query reads a 290 KB song lookup (214 records) on its critical path,
/// and Codable's keyed container looked each of a record's 21 fields up by name among its 35
/// keys (half of that body's decoding time). Here one pass over each record's keys sets the
/// fields it knows, telling keys apart by length before comparing them.
///
/// Only for bodies of exactly the shape `ITunesEnvelope` accepts (`ShapeReading`); anything else
/// (a value of another type, a number that is no exact `Int`, text that is not JSON) answers
/// nil, and the Codable path decodes it and names what is wrong, so errors stay what they were.
enum ITunesRecordReader {
    /// The `results` of `body`, as `ITunesEnvelope` decodes them; nil when the body is not that shape.
    static func records(_ body: [UInt8]) -> [ITunesRecord]? {
        guard case .object(let root)? = try? JSONReader.parse(body), case .array(let results)? = root["results"],
            case .some(.some) = try? ShapeReading.int(root["resultCount"])
        else { return nil }
        var records: [ITunesRecord] = []
        records.reserveCapacity(results.count)
        do throws(ShapeReading.ShapeMismatch) {
            for result in results {
                guard case .object(let object) = result else { throw ShapeReading.ShapeMismatch() }
                records.append(try record(object))
            }
        } catch {
            return nil
        }
        return records
    }

    private static func record(_ object: JSONObject) throws(ShapeReading.ShapeMismatch) -> ITunesRecord {
        var record = ITunesRecord()
        for (key, value) in object.entries {
            switch key.utf8.count {
            case 4: if key == "kind" { record.kind = try ShapeReading.string(value) }
            case 7: if key == "trackId" { record.trackId = try ShapeReading.int(value) }
            case 8: if key == "artistId" { record.artistId = try ShapeReading.int(value) }
            case 9:
                if key == "trackName" {
                    record.trackName = try ShapeReading.string(value)
                } else if key == "copyright" {
                    record.copyright = try ShapeReading.string(value)
                }
            case 10:
                if key == "artistName" {
                    record.artistName = try ShapeReading.string(value)
                } else if key == "previewUrl" {
                    record.previewUrl = try ShapeReading.string(value)
                } else if key == "trackCount" {
                    record.trackCount = try ShapeReading.int(value)
                } else if key == "discNumber" {
                    record.discNumber = try ShapeReading.int(value)
                }
            case 11:
                if key == "wrapperType" {
                    record.wrapperType = try ShapeReading.string(value)
                } else if key == "trackNumber" {
                    record.trackNumber = try ShapeReading.int(value)
                } else if key == "releaseDate" {
                    record.releaseDate = try ShapeReading.string(value)
                }
            case 12:
                if key == "collectionId" {
                    record.collectionId = try ShapeReading.int(value)
                } else if key == "trackViewUrl" {
                    record.trackViewUrl = try ShapeReading.string(value)
                }
            case 13:
                if key == "artistLinkUrl" {
                    record.artistLinkUrl = try ShapeReading.string(value)
                } else if key == "artistViewUrl" {
                    record.artistViewUrl = try ShapeReading.string(value)
                } else if key == "artworkUrl100" {
                    record.artworkUrl100 = try ShapeReading.string(value)
                }
            case 14: if key == "collectionName" { record.collectionName = try ShapeReading.string(value) }
            case 15: if key == "trackTimeMillis" { record.trackTimeMillis = try ShapeReading.int(value) }
            case 16: if key == "primaryGenreName" { record.primaryGenreName = try ShapeReading.string(value) }
            case 17: if key == "collectionViewUrl" { record.collectionViewUrl = try ShapeReading.string(value) }
            default: break
            }
        }
        return record
    }
}
