import Adal2MSAL
import Adal2MSALSynthetic
import ArgumentParser
import Foundation

/// `adal2msal-bench plan`: how long identity resolution, mapping and planning take, and the report renderers,
/// on synthetic ADAL items (per user: an MRRT, its FRT copy and two unexpired access tokens; every third user
/// pre-2.7, so its identity is derived from the id token), or on a real input read as `migrate` reads it.
struct PlanBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan", abstract: "Time MigrationPlanner and the report renderers on synthetic users or an input.")

  @Option(help: "Number of synthetic users.") var users = 2_000
  @Option(help: "Timed repetitions (the best is reported).") var repeats = 5
  @Option(
    help:
      "Plan this input (a dump or a directory of dumps, as `migrate --adal` takes) instead of synthetic users, and time the report's stages one by one."
  )
  var input: String?
  @Flag(help: "With --input: time the report with --redact-usernames too.") var redact = false
  @Flag(help: "With --input: time only the pipeline's report stage (model + text), for profiling it.") var textOnly =
    false

  func run() async throws {
    if let input { return try await runOnInput(input) }
    let items = try (0..<users).flatMap(Self.items)
    let input = ADALInput(file: "synthetic", items: items)
    let options = MigrationOptions(clock: .fixed(Date(timeIntervalSince1970: 1_750_000_000)))
    var best: (plan: Duration, text: Duration, json: Duration) = (.seconds(3600), .seconds(3600), .seconds(3600))
    var plan = MigrationPlan(entries: [], plannedAt: Date())
    for _ in 0..<max(1, repeats) {
      let clock = ContinuousClock()
      let start = clock.now
      plan = Migration.plan(adal: [input], options: options)
      let planned = clock.now
      let report = Migration.report(plan)
      _ = report.text()
      let texted = clock.now
      _ = report.json()
      let jsoned = clock.now
      best = (min(best.plan, planned - start), min(best.text, texted - planned), min(best.json, jsoned - texted))
    }
    print("users \(users), ADAL items \(items.count), plan entries \(plan.entries.count)")
    print("plan        \(best.plan)  (\(Int(Double(items.count) / best.plan.seconds)) items/s)")
    print("report text \(best.text)")
    print("report json \(best.json)")
  }

  /// Reads and plans `path` once, then times the report's model and each renderer, best of `repeats`, with
  /// wall and CPU seconds (the model and the text renderer use all cores).
  private func runOnInput(_ path: String) async throws {
    let options = MigrationOptions(
      clock: .fixed(Date(timeIntervalSince1970: TimeInterval(SyntheticGenerator.referenceNow))))
    let pipeline = MigrationPipeline(options: options)
    let inputs = try await pipeline.read(adal: [path], msal: [])
    let itemCount = inputs.adal.reduce(0) { $0 + $1.items.count }
    let plan = pipeline.plan(consume inputs)  // as `migrate` plans: the items are freed once mapped
    print("input \(path): \(itemCount) ADAL items, \(plan.entries.count) plan entries")
    var best: [String: (wall: Double, cpu: Double)] = [:]
    var order: [String] = []
    func time<T>(_ name: String, _ body: () -> T) -> T {
      let (start, cpu) = (ContinuousClock.now, CPUTime.ofSelf())
      let result = body()
      let figures = (wall: (ContinuousClock.now - start).seconds, cpu: CPUTime.ofSelf() - cpu)
      if best[name] == nil { order.append(name) }
      if figures.wall < best[name]?.wall ?? .infinity { best[name] = figures }
      return result
    }
    var bytes = 0
    for _ in 0..<max(1, repeats) {
      if textOnly {
        bytes = time("model + text (the pipeline's report stage)") { plan.pipelineReportText() }
        continue
      }
      let report = time("report model") { Migration.report(plan) }
      // Each renderer as `migrate --report FILE` runs it: written out as it is made (here counted).
      func written(_ format: ReportFormat, of report: MigrationReport) -> Int {
        var byteCount = 0
        report.write(format) { byteCount += $0.count }
        return byteCount
      }
      bytes = time("text") { written(.text, of: report) }
      _ = time("json") { written(.json, of: report) }
      _ = time("markdown") { written(.markdown, of: report) }
      _ = time("model + text (the pipeline's report stage)") { plan.pipelineReportText() }
      if redact {
        _ = time("model + text, redacted") { written(.text, of: Migration.report(plan, redactUsernames: true)) }
      }
    }
    print("text report: \(bytes) bytes; best of \(max(1, repeats)):")
    for name in order {
      let figures = best[name]!
      print(
        "  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%7.3f s wall %7.3f s CPU", figures.wall, figures.cpu))"
      )
    }
  }

  static func items(_ user: Int) throws -> [ADALTokenItem] {
    let oid = String(format: "%08x-0000-4000-8000-%012x", user, user)
    let tid = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    let claims: [String: Any] = [
      "oid": oid, "tid": tid, "upn": "user\(user)@contoso.com", "sub": "sub-\(user)", "ver": "1.0",
      "iss": "https://sts.windows.net/\(tid)/", "name": "User \(user)",
    ]
    let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
    let raw = Base64URL.encode(#"{"typ":"JWT","alg":"none"}"#) + "." + payload + ".c2ln"
    let home = user % 3 == 0 ? nil : "\(oid).\(tid)"
    let authority = "https://login.microsoftonline.com/\(tid)"
    let client = "c1e8e3b2-7d4a-4f5e-9b6c-0a1b2c3d4e5f"
    func item(_ index: Int, client: String, resource: String?, at: String?, rt: String?) throws -> ADALTokenItem {
      let kind = ADALTokenKind.classify(accessToken: at, refreshToken: rt, clientID: client, familyID: "1")
      return ADALTokenItem(
        authority: authority, resource: resource, clientID: client, familyID: "1",
        accessToken: at.map { ADALSecret(hashingWhenNeeded: $0) },
        refreshToken: rt.map { ADALSecret($0) }, expiresOn: Date(timeIntervalSince1970: 4_000_000_000),
        homeAccountID: home, idToken: ADALSecret(raw), idTokenClaims: try IDTokenClaims(rawIDToken: raw),
        kind: kind ?? .accessToken, source: ADALItemSource(file: "synthetic", itemIndex: user * 4 + index))
    }
    return [
      try item(0, client: client, resource: nil, at: nil, rt: "rt-\(user)"),
      try item(1, client: "foci-1", resource: nil, at: nil, rt: "rt-\(user)"),
      try item(2, client: client, resource: "https://graph.microsoft.com", at: "at-graph-\(user)", rt: nil),
      try item(3, client: client, resource: "https://contoso-my.sharepoint.com/", at: "at-sp-\(user)", rt: nil),
    ]
  }
}

extension Duration {
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension MigrationPlan {
  /// The text report as `adal2msal migrate --report FILE` makes it: the model, its text written out as it is
  /// made (here counted, not written: the stage without the disk), and the model let go on another core
  /// (`releaseInBackground`), so that freeing it is not part of the stage. Returns the text's size in bytes.
  func pipelineReportText() -> Int {
    let model = Migration.report(self)
    var byteCount = 0
    model.write(.text) { byteCount += $0.count }
    releaseInBackground(consume model)
    return byteCount
  }
}
