// Tests for the DataLoader module arrive with its issue; this file keeps the target buildable.
import Testing
@testable import DataLoader
