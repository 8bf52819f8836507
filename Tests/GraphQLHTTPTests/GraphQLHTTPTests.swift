// Tests for the GraphQLHTTP module arrive with its issue; this file keeps the target buildable.
import Testing
@testable import GraphQLHTTP
