import Foundation
import MigrationEngine
import Testing
import _Adal2MSALTestSupport

/// Each scenario's plan, as the JSON and the text report, against golden files reviewed by hand
/// (Tests/MigrationEngineTests/Golden/<scenario>.json and .txt).
@Suite struct ScenarioGoldenTests {
  @Test func everyScenarioDirectoryIsListed() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("scenarios").path)
      .filter { !$0.hasPrefix(".") }.sorted()
    #expect(folders == Scenario.names)
  }

  @Test(arguments: Scenario.names)
  func reportsMatchGolden(_ name: String) throws {
    let scenario = try Scenario(name)
    let report = Migration.report(scenario.plan())
    try expectGolden(report.json(), "\(name).json")
    try expectGolden(report.text(), "\(name).txt")
  }
}
