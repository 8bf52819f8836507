// Tests for the HTTPServer module arrive with its issue; this file keeps the target buildable.
import Testing
@testable import HTTPServer
