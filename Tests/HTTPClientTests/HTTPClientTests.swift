// Tests for the HTTPClient module arrive with its issue; this file keeps the target buildable.
import Testing
@testable import HTTPClient
