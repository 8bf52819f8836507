import Testing
@testable import DataLoader
