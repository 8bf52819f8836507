import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct YouTubeRoutesTests {
        @Test func missingKeyIsForbidden() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=x")
            #expect(response.status == 403)
            #expect(response.text.contains(#""reason": "forbidden""#))
            #expect(response.text.contains(#""status": "PERMISSION_DENIED""#))
        }

        @Test func searchEscapesHTMLButVideosDoNot() async throws {
            let demo = try await Demo.make()
            let search = await Demo.get(
                demo, "/youtube/v3/search", "part=snippet&q=Welcome+to+the+Jungle&maxResults=1&key=k")
            #expect(search.text.contains(#""title": "Guns N&#39; Roses - Welcome to the Jungle (Official Video)""#))
            #expect(search.text.contains(#""nextPageToken": "CA1QAA""#))
            let object = try #require(try Demo.json(search) as? [String: Any])
            let id = try #require(
                (((object["items"] as? [[String: Any]])?.first?["id"]) as? [String: Any])?["videoId"] as? String)
            let videos = await Demo.get(
                demo, "/youtube/v3/videos", "part=snippet,contentDetails,statistics&id=\(id),nope&key=k")
            #expect(videos.text.contains(#""title": "Guns N' Roses - Welcome to the Jungle (Official Video)""#))
            #expect(videos.text.contains(#""duration": "PT4M33S""#))
            let list = try #require(try Demo.json(videos) as? [String: Any])
            #expect((list["items"] as? [Any])?.count == 1)
        }

        @Test func pageTokensRoundTrip() async throws {
            #expect(YouTubeRoutes.pageToken(offset: 25) == "CAPQAA")
            #expect(YouTubeRoutes.offset(fromPageToken: "CAPQAA") == 25)
            #expect(YouTubeRoutes.offset(fromPageToken: "bogus") == nil)
            let demo = try await Demo.make()
            #expect(await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=x&pageToken=bogus&key=k").status == 400)
            let second = await Demo.get(
                demo, "/youtube/v3/search", "part=snippet&q=Jungle&maxResults=1&pageToken=CA1QAA&key=k")
            #expect(second.text.contains(#""prevPageToken": "CA0QAA""#))
        }

        @Test func partsAndLimits() async throws {
            let demo = try await Demo.make()
            let ids = (0..<51).map { _ in "x" }.joined(separator: ",")
            let tooMany = await Demo.get(demo, "/youtube/v3/videos", "part=snippet&id=\(ids)&key=k")
            #expect(tooMany.status == 400)
            #expect(tooMany.text.contains(#""reason": "invalidFilters""#))
            #expect(await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=x&maxResults=51&key=k").status == 400)
            #expect(await Demo.get(demo, "/youtube/v3/search", "q=x&key=k").status == 400)
            let video = demo.catalog.videos[0]
            let snippetOnly = await Demo.get(demo, "/youtube/v3/videos", "part=snippet&id=\(video.id)&key=k").text
            #expect(
                snippetOnly.contains("\"snippet\"") && !snippetOnly.contains("\"contentDetails\"")
                    && !snippetOnly.contains("\"statistics\""))
        }

        @Test func isoDurations() {
            #expect(YouTubeRoutes.isoDuration(seconds: 346) == "PT5M46S")
            #expect(YouTubeRoutes.isoDuration(seconds: 3720) == "PT1H2M")
            #expect(YouTubeRoutes.isoDuration(seconds: 0) == "PT0S")
            #expect(YouTubeRoutes.htmlEscape(#"a&b <c> "d" 'e'"#) == "a&amp;b &lt;c&gt; &quot;d&quot; &#39;e&#39;")
        }
    }
}
