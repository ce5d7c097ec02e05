import Foundation
import MigrationEngine
import Testing
import _Adal2MSALTestSupport

/// Each scenario's plan, as the JSON and the text report, against golden files reviewed by hand
/// (Tests/MigrationEngineTests/Golden/<scenario>.json and .txt).
@Suite struct ScenarioGoldenTests {
  @Test func everyScenarioDirectoryIsListed() throws {
    let root = Fixtures.url("scenarios")
    let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { name in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }.sorted()
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
