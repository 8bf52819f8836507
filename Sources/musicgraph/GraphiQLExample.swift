/// The document GraphiQL opens on at a first visit to `serve`: nested, so one click shows what
/// the gateway is for (an artist, two albums and their tracks in one request), and one the demo
/// catalog (`serve --demo`) answers (2 albums, 23 tracks).
let graphiQLExampleQuery = """
    # An artist, two of their albums and every track of each, in one request. Run it: ▶ or Ctrl+Enter.
    {
      artist(name: "Iron Maiden") {
        name
        albums(first: 2) {
          title
          tracks {
            title
            durationMs
          }
        }
      }
    }

    """
