import ADALCache
import Foundation
import Testing
import UnifiedCache

@testable import MigrationEngine

/// A run planned in parts (`InputPartitions`, `PlanningSession`, `ReportSpool`) must give the whole plan's
/// report, byte for byte. The oracle is the whole plan (`Migration.plan`, the golden files' plan). Each
/// scenario's dump is cut into one input per item, so a user's items arrive in different inputs and only
/// the partition's identity keys keep them together: a missing key splits a user, and the report differs.
@Suite struct PlanningInPartsTests {
  @Test(arguments: Scenario.names)
  func partsGiveTheWholeReport(_ name: String) throws {
    let scenario = try Scenario(name)
    let whole = Migration.report(scenario.plan())
    for maxItems in [1, 2, 1_000] {
      for redact in [false, true] {
        let oracle = redact ? Migration.report(scenario.plan(), redactUsernames: true) : whole
        for format in ReportFormat.allCases {
          var expected: [UInt8] = []
          oracle.write(format, colorize: format == .text) { expected += $0 }
          let parted = try Self.reportInParts(scenario, maxItems: maxItems, redact: redact, format: format)
          expectSameReport(parted, expected, "\(name), \(maxItems) items per part, \(format), redacted: \(redact)")
        }
      }
    }
  }

  /// A run of one part hands its whole plan to `finish` with no part added: the report is written as it is
  /// rendered, and is still the whole plan's, with the diagnostics in plan order whatever order they came in.
  @Test(arguments: Scenario.names)
  func aRunOfOnePartGivesTheWholeReport(_ name: String) throws {
    let plan = try Scenario(name).plan()
    var arriving = plan
    arriving.diagnostics.reverse()
    for redact in [false, true] {
      var names = RedactionNames()
      names.add(plan)
      for format in ReportFormat.allCases {
        var expected: [UInt8] = []
        Migration.report(plan, redactUsernames: redact).write(format, colorize: format == .text) { expected += $0 }
        var spool = ReportSpool(format: format, colorize: format == .text, redacting: redact ? names : nil)
        var written: [UInt8] = []
        try spool.finish(arriving) { written += $0 }
        expectSameReport(written, expected, "\(name), \(format), redacted: \(redact)")
      }
    }
  }

  /// A run of one part held until the rest is planned (a dry run: `ReportSpool.hold`, rendered whole by
  /// `finish`) gives the whole plan's report too.
  @Test(arguments: Scenario.names)
  func aHeldPartGivesTheWholeReport(_ name: String) throws {
    let scenario = try Scenario(name)
    for redact in [false, true] {
      let oracle = Migration.report(scenario.plan(), redactUsernames: redact)
      for format in ReportFormat.allCases {
        var expected: [UInt8] = []
        oracle.write(format, colorize: format == .text) { expected += $0 }
        let held = try Self.reportInParts(scenario, maxItems: 1_000, redact: redact, format: format, holding: true)
        expectSameReport(held, expected, "\(name), \(format), redacted: \(redact)")
      }
    }
  }

  /// Every scenario's dump in one run (with the MSAL inputs and the store of some): many users, in many parts.
  @Test func allScenariosTogether() throws {
    var combined = try Scenario("msal-conflict")
    combined.existing = try Scenario("pre27-existing-account").existing
    combined.adal = []
    combined.inputs = combined.inputs.filter { $0.role == .msal }
    for name in Scenario.names {
      let scenario = try Scenario(name)
      combined.adal += scenario.adal.map {
        ADALInput(file: "\(name)/\($0.file)", items: $0.items, diagnostics: $0.diagnostics)
      }
      combined.inputs += scenario.inputs.filter { $0.role == .adal }.map { input in
        var renamed = input
        renamed.path = "\(name)/\(input.path)"
        return renamed
      }
    }
    let plan = combined.plan()
    #expect(plan.users.count >= 10)
    for format in ReportFormat.allCases {
      for redact in [false, true] {
        var expected: [UInt8] = []
        Migration.report(plan, redactUsernames: redact).write(format, colorize: format == .text) { expected += $0 }
        for maxItems in [1, 7, 100_000] {
          let parted = try Self.reportInParts(combined, maxItems: maxItems, redact: redact, format: format)
          expectSameReport(parted, expected, "\(maxItems) items per part, \(format), redacted: \(redact)")
          if maxItems == 1 { #expect(Self.partCount(combined, maxItems: 1) >= 5) }
        }
      }
    }
  }

  /// Every item its own input: partitions that ignore users would split them, so the keys are what holds.
  @Test func itemsOfOneUserShareAPart() throws {
    let scenario = try Scenario("upn-change")
    let inputs = Self.inputPerItem(scenario.adal)
    var partitions = InputPartitions()
    for input in inputs {
      partitions.add(keys: InputPartitions.keys(of: input, unified: nil), items: input.items.count)
    }
    let parts = partitions.parts(existing: scenario.existing, maxItems: 1)
    #expect(inputs.count > 1)
    #expect(parts.count == 1, "the UPN change's items are one user: \(parts)")
  }

  /// Users that share nothing are planned apart when parts are small, so the scenarios above do test
  /// reports assembled from several parts.
  @Test func unrelatedUsersArePlannedApart() throws {
    var split: [String: Int] = [:]
    for name in Scenario.names {
      let scenario = try Scenario(name)
      var partitions = InputPartitions()
      for input in Self.inputPerItem(scenario.adal) {
        partitions.add(keys: InputPartitions.keys(of: input, unified: nil), items: input.items.count)
      }
      #expect(partitions.parts(existing: scenario.existing, maxItems: 1_000).count == 1, "\(name)")
      let parts = partitions.parts(existing: scenario.existing, maxItems: 1).count
      if parts > 1 { split[name] = parts }
    }
    #expect(split.count >= 2, "scenarios planned in several parts: \(split)")
  }

  static func partCount(_ scenario: Scenario, maxItems: Int) -> Int {
    var partitions = InputPartitions()
    for input in inputPerItem(scenario.adal) {
      partitions.add(keys: InputPartitions.keys(of: input, unified: nil), items: input.items.count)
    }
    return partitions.parts(existing: scenario.existing, maxItems: maxItems).count
  }

  static func inputPerItem(_ adal: [ADALInput]) -> [ADALInput] {
    adal.flatMap { input in
      // The reader's diagnostics go with the first piece: a run reports them once.
      input.items.enumerated().map { offset, item in
        ADALInput(file: input.file, items: [item], diagnostics: offset == 0 ? input.diagnostics : [])
      } + (input.items.isEmpty ? [input] : [])
    }
  }

  /// What `MigrationPipeline.planInParts` does, on inputs in memory: ADAL inputs and the accounts of the MSAL
  /// inputs are the partition's nodes; each part gets its ADAL inputs and its accounts' entities; `finish`
  /// gets the rest. `holding`: the only part is held (`ReportSpool.hold`), not added.
  static func reportInParts(
    _ scenario: Scenario, maxItems: Int, redact: Bool, format: ReportFormat, holding: Bool = false
  ) throws -> [UInt8] {
    let adal = inputPerItem(scenario.adal)
    var partitions = InputPartitions()
    for input in adal { partitions.add(keys: InputPartitions.keys(of: input, unified: nil), items: input.items.count) }
    var accounts: [(file: Int, home: String)] = []
    for (position, input) in scenario.msal.enumerated() {
      for account in input.accountKeys {
        partitions.add(keys: account.keys, items: 0)
        accounts.append((position, account.home))
      }
    }
    func planAll(_ body: (MigrationPlan) throws -> Void) throws -> MigrationPlan {
      var session = PlanningSession(options: scenario.options, existing: scenario.existing)
      for part in partitions.parts(existing: scenario.existing, maxItems: maxItems) {
        let msal = part.filter { $0 >= adal.count }.map { accounts[$0 - adal.count] }.map { account in
          scenario.msal[account.file].entities(ofAccounts: [account.home])
        }
        try body(session.plan(adal: part.filter { $0 < adal.count }.map { adal[$0] }, msal: msal))
      }
      let shared = scenario.msal.map { $0.sharedEntities(keepingDiagnostics: true) }
      return session.finish(msal: shared, inputs: scenario.inputs)
    }
    var names: RedactionNames?
    if redact {
      var gathered = RedactionNames()
      gathered.add(try planAll { gathered.add($0) })
      names = gathered
    }
    var spool = ReportSpool(format: format, colorize: format == .text, redacting: names)
    spool.usersPerBatch = 1
    let rest = try planAll { holding ? spool.hold($0) : try spool.add($0) }
    var written: [UInt8] = []
    try spool.finish(rest) { written += $0 }
    return written
  }
}

/// Fails with the first line that differs (a report's bytes printed whole are unreadable).
func expectSameReport(
  _ actual: [UInt8], _ expected: [UInt8], _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  guard actual != expected else { return }
  let actualLines = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
  let expectedLines = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
  let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }
  let detail =
    first.map { "line \($0.offset + 1):\n  expected: \($0.element.0)\n  actual:   \($0.element.1)" }
    ?? "line counts differ (\(expectedLines.count) vs \(actualLines.count))"
  Issue.record("\(context): the report differs; \(detail)", sourceLocation: sourceLocation)
}
