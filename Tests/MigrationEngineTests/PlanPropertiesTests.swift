import ADALCache
import Foundation
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// Properties every scenario's plan must have: applying it and planning again changes nothing, and the plan
/// does not depend on the order of inputs or items.
@Suite struct PlanPropertiesTests {
  @Test(arguments: Scenario.names)
  func replanningAfterApplyChangesNothing(_ name: String) throws {
    let scenario = try Scenario(name)
    let first = scenario.plan()
    let applied = first.applied(to: scenario.existing)
    let second = scenario.plan(existing: applied)
    let writes = second.entries.filter { $0.action.writes }
    #expect(writes.isEmpty, "re-plan writes: \(writes.map { "\($0.action) \($0.canonicalKey ?? "-")" })")
    #expect(second.isNoChange)
    // The same items are skipped or in conflict, for the same reasons.
    func attention(_ plan: MigrationPlan) -> [String] {
      plan.entries.filter { $0.action == .skip || $0.action == .conflict }
        .map { "\($0.action) \($0.reasonCode) \($0.sources)" }
    }
    #expect(attention(second) == attention(first))
    // Everything the first plan wrote is now unchanged.
    let unchanged = Set(second.entries.filter { $0.action == .unchanged }.compactMap(\.canonicalKey))
    for entry in first.writes { #expect(unchanged.contains(entry.canonicalKey ?? ""), "\(entry.canonicalKey ?? "-")") }
    // And applying the second plan is the identity.
    #expect(second.applied(to: applied) == applied)
  }

  @Test(arguments: Scenario.names)
  func planIsIndependentOfInputOrder(_ name: String) throws {
    let scenario = try Scenario(name)
    let reference = scenario.plan()
    let referenceReport = Migration.report(reference)
    var generator = SeededGenerator(seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
    for _ in 0..<5 {
      var shuffled = scenario
      shuffled.adal = scenario.adal.map { input in
        ADALInput(
          file: input.file, items: input.items.shuffled(using: &generator),
          diagnostics: input.diagnostics.shuffled(using: &generator))
      }.shuffled(using: &generator)
      shuffled.msal = scenario.msal.shuffled(using: &generator)
      shuffled.inputs = scenario.inputs.shuffled(using: &generator)
      let plan = shuffled.plan()
      #expect(plan == reference)
      let report = Migration.report(plan)
      #expect(report.json() == referenceReport.json())
      #expect(report.text() == referenceReport.text())
      #expect(report.markdown() == referenceReport.markdown())
    }
  }
}
