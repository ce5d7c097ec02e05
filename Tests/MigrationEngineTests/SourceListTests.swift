import Testing

@testable import MigrationEngine

/// A report lists at most eight sources of an entry, then how many more (the JSON report lists them all).
@Suite struct SourceListTests {
  static func sources(_ count: Int) -> [PlanSource] {
    (0..<count).map { PlanSource(file: "dump.plist", itemIndex: $0, label: "ADAL AT https://graph.windows.net") }
  }

  static func expected(_ count: Int, separator: String) -> String {
    let listed = sources(count).prefix(8).map(\.description).joined(separator: separator)
    return count > 8 ? listed + "\(separator)and \(count - 8) more" : listed
  }

  @Test(arguments: [0, 1, 8, 9, 31])
  func listsEightThenCountsTheRest(count: Int) {
    for separator: StaticString in [", ", "<br>"] {
      var text: [UInt8] = []
      MigrationReport.writeSourceList(Self.sources(count), separator: separator, to: &text)
      #expect(String(decoding: text, as: UTF8.self) == Self.expected(count, separator: separator.description))
    }
  }
}
