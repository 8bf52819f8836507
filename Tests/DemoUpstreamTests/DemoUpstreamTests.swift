// Route tests live beside each service; this file only checks the bundle loads.
import Testing

@testable import DemoUpstream

@Suite struct DemoCatalogTests {
  @Test func bundledCatalogLoads() throws {
    let chinook = try ChinookCatalog.bundled()
    #expect(chinook.artists.count == 275)
    #expect(chinook.albums.count == 347)
    #expect(chinook.tracks.count == 3503)
    #expect(chinook.genres.count == 25)
  }
}
