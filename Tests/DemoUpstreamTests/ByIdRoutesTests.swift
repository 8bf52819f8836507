import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    /// The by-id endpoints the gateway's `node`/`artist`/`album`/`track` fields read: Apple
    /// Music `artists?ids=` / `songs?ids=` / `songs/{id}`, TMDB `/3/movie/{id}`, Rakuten `jan=`.
    @Suite struct ByIdRoutesTests {
        let auth = ["Authorization": "Bearer demo"]

        @Test func appleMusicArtistsByIdsKeepRequestOrderAndDropUnknownIds() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/v1/catalog/us/artists", "ids=100088,1,100001,100088", headers: auth)
            #expect(response.status == 200)
            let data = try #require((try Demo.json(response) as? [String: Any])?["data"] as? [[String: Any]])
            #expect(data.map { $0["id"] as? String } == ["100088", "100001"])
            #expect(data.map { $0["type"] as? String } == ["artists", "artists"])
            let attributes = try #require(data[1]["attributes"] as? [String: Any])
            #expect(attributes["name"] as? String == "AC/DC")
            #expect(attributes["genreNames"] as? [String] == ["Rock"])
            #expect(attributes["url"] as? String == "https://music.demo.invalid/us/artist/ac-dc/100001")
            let none = await Demo.get(demo, "/v1/catalog/us/artists", "ids=1,2", headers: auth)
            #expect(none.status == 200)
            #expect(none.text == #"{"data":[]}"#)
        }

        @Test func appleMusicIdLimitsPerType() async throws {
            let demo = try await Demo.make()
            for (type, limit, base) in [("artists", 25, 100_000), ("songs", 300, 300_000), ("albums", 100, 200_000)] {
                let fits = (1...limit).map { String(base + $0) }.joined(separator: ",")
                #expect(await Demo.get(demo, "/v1/catalog/us/\(type)", "ids=\(fits)", headers: auth).status == 200)
                let over = await Demo.get(
                    demo, "/v1/catalog/us/\(type)", "ids=\(fits),\(base + limit + 1)", headers: auth)
                #expect(over.status == 400, "\(type)")
                let error = try #require(
                    ((try Demo.json(over) as? [String: Any])?["errors"] as? [[String: Any]])?.first)
                #expect(error["code"] as? String == "40005")
                #expect(error["detail"] as? String == "Too many ids requested (maximum \(limit))")
            }
        }

        @Test func appleMusicSongsCarryTheirAlbumAndArtistRelationships() async throws {
            let demo = try await Demo.make()
            let batch = try #require(
                (try Demo.json(await Demo.get(demo, "/v1/catalog/us/songs", "ids=300001", headers: auth))
                    as? [String: Any])?[
                        "data"] as? [[String: Any]])
            let single = try #require(
                (try Demo.json(await Demo.get(demo, "/v1/catalog/us/songs/300001", headers: auth)) as? [String: Any])?[
                    "data"]
                    as? [[String: Any]])
            for data in [batch, single] {
                #expect(data.count == 1)
                #expect(
                    (data[0]["attributes"] as? [String: Any])?["name"] as? String
                        == "For Those About To Rock (We Salute You)")
                let relationships = try #require(data[0]["relationships"] as? [String: Any])
                let album = try #require(
                    ((relationships["albums"] as? [String: Any])?["data"] as? [[String: Any]])?.first)
                #expect(album["id"] as? String == "200001")
                #expect(album["href"] as? String == "/v1/catalog/us/albums/200001")
                let artist = try #require(
                    ((relationships["artists"] as? [String: Any])?["data"] as? [[String: Any]])?.first)
                #expect(artist["id"] as? String == "100001")
            }
            let missing = await Demo.get(demo, "/v1/catalog/us/songs/200001", headers: auth)
            #expect(missing.status == 404)
            #expect(missing.text.contains(#""code":"40400""#))
        }

        @Test func appleMusicAlbumsCarryTheirCopyright() async throws {
            let demo = try await Demo.make()
            let data = try #require(
                (try Demo.json(await Demo.get(demo, "/v1/catalog/us/albums", "ids=200004", headers: auth))
                    as? [String: Any])?[
                        "data"] as? [[String: Any]])
            #expect((data.first?["attributes"] as? [String: Any])?["copyright"] as? String == "℗ 1972 AC/DC")
        }

        @Test func tmdbMovieDetails() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/3/movie/500001", "language=en-US&api_key=k")
            #expect(response.status == 200)
            let movie = try #require(try Demo.json(response) as? [String: Any])
            #expect(movie["id"] as? Int == 500001)
            #expect(movie["title"] as? String == "AC/DC: The Story")
            #expect(movie["vote_count"] as? Int == 3229)
            #expect(movie["release_date"] as? String == "2015-11-15")
            #expect(movie["poster_path"] as? String == "/fnmxhhg3lI0Poster.jpg")
            #expect((movie["genres"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Drama", "Music"])
            // The search result of the same movie agrees.
            let search = try #require(
                (try Demo.json(await Demo.get(demo, "/3/search/movie", "query=AC%2FDC&api_key=k")) as? [String: Any])?[
                    "results"] as? [[String: Any]])
            #expect(search.first?["vote_count"] as? Int == 3229)

            let unknown = await Demo.get(demo, "/3/movie/1", "api_key=k")
            #expect(unknown.status == 404)
            #expect(
                unknown.text
                    == #"{"success":false,"status_code":34,"status_message":"The resource you requested could not be found."}"#
            )
            #expect(await Demo.get(demo, "/3/movie/500001").status == 401)
        }

        @Test func rakutenSearchByJAN() async throws {
            let demo = try await Demo.make()
            let path = "/services/api/BooksCD/Search/20170404"
            let found = try #require(
                try Demo.json(await Demo.get(demo, path, "applicationId=a&formatVersion=2&jan=4900010000007"))
                    as? [String: Any])
            #expect(found["count"] as? Int == 1)
            let items = try #require(found["Items"] as? [[String: Any]])
            #expect(items.map { $0["title"] as? String } == ["For Those About To Rock We Salute You"])
            #expect(items.first?["jan"] as? String == "4900010000007")
            let none = await Demo.get(demo, path, "applicationId=a&formatVersion=2&jan=4999999999999")
            #expect(none.status == 200)
            #expect((try Demo.json(none) as? [String: Any])?["count"] as? Int == 0)
            // `jan` narrows other keys too.
            let both = try #require(
                try Demo.json(
                    await Demo.get(demo, path, "applicationId=a&formatVersion=2&jan=4900010000007&artistName=Queen"))
                    as? [String: Any])
            #expect(both["count"] as? Int == 0)
        }
    }
}
