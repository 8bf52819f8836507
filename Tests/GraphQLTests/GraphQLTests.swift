// GraphQL engine tests live beside this file, one file per component.
import Testing

@testable import GraphQL
