import Foundation
import MigrationEngine
import Testing
import _Adal2MSALTestSupport

/// The JSON report against its published schema, docs/report-schema.json.
@Suite struct ReportSchemaTests {
  static func schema() throws -> MiniSchema {
    let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/report-schema.json"))
    return MiniSchema(root: try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
  }

  @Test(arguments: Scenario.names)
  func everyReportFollowsTheSchema(_ name: String) throws {
    let schema = try Self.schema()
    let plan = try Scenario(name).plan()
    for json in [Migration.report(plan).json(), Migration.report(plan, redactUsernames: true).json()] {
      let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
      #expect(schema.errors(value) == [])
    }
  }

  @Test func theSchemaRejectsWhatItShould() throws {
    let schema = try Self.schema()
    let json = Migration.report(try Scenario("adfs").plan()).json()
    var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    object["schemaVersion"] = 2
    object["surprise"] = true
    var users = try #require(object["users"] as? [[String: Any]])
    users[0]["status"] = "maybe"
    object["users"] = users
    let errors = schema.errors(object)
    #expect(errors.contains { $0.contains("schemaVersion") })
    #expect(errors.contains { $0.contains("unexpected surprise") })
    #expect(errors.contains { $0.contains("status") })
  }
}
