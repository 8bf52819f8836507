import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct ITunesRoutesTests {
        @Test func searchEnvelopeIsByteExact() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/search", "term=AC%2FDC&entity=musicArtist&limit=3")
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/javascript; charset=utf-8")
            #expect(
                response.text
                    == "\n\n\n{\n \"resultCount\":1,\n \"results\": [\n{\"wrapperType\":\"artist\", \"artistType\":\"Artist\", "
                    + "\"artistName\":\"AC/DC\", \"artistLinkUrl\":\"https://music.demo.invalid/us/artist/ac-dc/100001?uo=4\", "
                    + "\"artistId\":100001, \"amgArtistId\":3007, \"primaryGenreName\":\"Rock\", \"primaryGenreId\":1}]\n}\n\n\n"
            )
        }

        @Test func emptySearch() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/search", "term=zzzzzz&entity=album")
            #expect(response.text == "\n\n\n{\n \"resultCount\":0,\n \"results\": []\n}\n\n\n")
        }

        @Test func exactNameFirstThenPrefix() async throws {
            let demo = try await Demo.make()
            let json =
                try Demo.json(await Demo.get(demo, "/search", "term=aerosmith&entity=musicArtist")) as? [String: Any]
            let names = (json?["results"] as? [[String: Any]])?.compactMap { $0["artistName"] as? String }
            #expect(names == ["Aerosmith", "Aerosmith & Sierra Leone's Refugee Allstars"])
        }

        @Test func songRecordsCarryTheTrackFields() async throws {
            let demo = try await Demo.make()
            let text = await Demo.get(demo, "/lookup", "id=300001").text
            #expect(text.contains(#""trackId":300001, "artistName":"AC/DC""#))
            #expect(text.contains(#""trackNumber":1, "trackTimeMillis":343719"#))
            #expect(
                text.contains(#", "#)
                    && text.contains(
                        "\", \n\"previewUrl\":\"https://audio.demo.invalid/itunes-assets/AudioPreview/v4/300001/")
            )
            #expect(text.contains(#""trackPrice":0.99"#))
        }

        @Test func multiIdLookupKeepsRequestOrderDropsUnknownsAndDuplicates() async throws {
            let demo = try await Demo.make()
            let json = try Demo.json(
                await Demo.get(demo, "/lookup", "id=200004,999999,100001,200004,42&entity=song&limit=2"))
            let results = try #require((json as? [String: Any])?["results"] as? [[String: Any]])
            #expect((json as? [String: Any])?["resultCount"] as? Int == 6)
            #expect(
                results.map { $0["wrapperType"] as? String } == [
                    "collection", "track", "track", "artist", "track", "track",
                ])
            #expect(results.map { $0["collectionId"] as? Int } == [200004, 200004, 200004, nil, 200001, 200001])
        }

        @Test func artistAlbumsRecentFirst() async throws {
            let demo = try await Demo.make()
            let json = try Demo.json(await Demo.get(demo, "/lookup", "id=100090&entity=album&limit=200&sort=recent"))
            let results = try #require((json as? [String: Any])?["results"] as? [[String: Any]])
            let dates = results.dropFirst().compactMap { $0["releaseDate"] as? String }
            #expect(dates.count == 21)
            #expect(dates == dates.sorted(by: >))
        }

        @Test func storefronts() async throws {
            let demo = try await Demo.make()
            let gb = await Demo.get(demo, "/lookup", "id=300001&country=GB").text
            #expect(gb.contains(#""country":"GBR", "currency":"GBP""#))
            #expect(gb.contains(#""trackPrice":0.79"#))
            #expect(gb.contains("https://music.demo.invalid/gb/artist/ac-dc/100001?uo=4"))
            let bad = await Demo.get(demo, "/search", "term=x&country=XX")
            #expect(bad.status == 400)
            #expect(
                bad.text
                    == #"{"errorMessage":"Invalid value(s) for key(s): [country]","queryParameters":{"country":"invalid"}}"#
            )
        }

        @Test func invalidParameters() async throws {
            let demo = try await Demo.make()
            #expect(await Demo.get(demo, "/lookup", "id=12,abc").status == 400)
            #expect(await Demo.get(demo, "/search", "term=x&entity=podcast").status == 400)
            #expect(await Demo.get(demo, "/search", "term=x&limit=ten").status == 400)
            #expect(await Demo.get(demo, "/lookup", "upc=886443927087").text.contains(#""resultCount":0"#))
        }

        @Test func musicVideos() async throws {
            let demo = try await Demo.make()
            let json = try Demo.json(await Demo.get(demo, "/search", "term=For+Those+About+To+Rock&entity=musicVideo"))
            let results = try #require((json as? [String: Any])?["results"] as? [[String: Any]])
            #expect(results.allSatisfy { $0["kind"] as? String == "music-video" && $0["collectionId"] == nil })
            #expect(results.allSatisfy { (($0["trackId"] as? Int) ?? 0) > 400_000 })
        }
    }
}
