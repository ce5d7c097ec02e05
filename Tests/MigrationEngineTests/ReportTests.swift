import ADALCache
import Adal2MSALSupport
import Foundation
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

/// The reports never show a secret, redact consistently, and colour only on request.
@Suite struct ReportTests {
  /// Every secret any input of the scenario holds.
  func secrets(_ scenario: Scenario) -> [String] {
    let adal = scenario.adal.flatMap(\.items).flatMap { item in
      [item.accessToken?.value, item.refreshToken?.value, item.idToken?.value].compactMap { $0 }
    }
    let unified = ([scenario.existing] + scenario.msal.map(\.contents)).flatMap { contents in
      contents.accessTokens.map(\.secret.value) + contents.refreshTokens.map(\.secret.value)
        + contents.idTokens.map(\.secret.value)
    }
    return (adal + unified).filter { $0 != ADALTokenKind.tombstoneMarker }
  }

  @Test(arguments: Scenario.names)
  func reportsNeverShowASecret(_ name: String) throws {
    let scenario = try Scenario(name)
    let plan = scenario.plan()
    let report = Migration.report(plan)
    let texts = [report.text(), report.text(colorize: true), report.json(), report.markdown()]
    let all = secrets(scenario)
    #expect(!all.isEmpty)
    for secret in all {
      #expect(texts.allSatisfy { !$0.contains(secret) }, "a secret (\(secret.count) chars) appears in a report")
      // Nor any payload segment of an id token (claims are personal data, shown only as fields).
      if secret.hasPrefix("eyJ"), secret.split(separator: ".").count == 3,
        let payload = secret.split(separator: ".").dropFirst().first
      {
        #expect(texts.allSatisfy { !$0.contains(payload) })
      }
    }
    for entry in plan.entries {
      if let entity = entry.entity { #expect(all.allSatisfy { !entity.description.contains($0) }) }
    }
  }

  @Test(arguments: ["two-tenants", "upn-change", "msal-conflict", "adfs"])
  func redactionHidesEveryNameAndIdConsistently(_ name: String) throws {
    let plan = try Scenario(name).plan()
    let report = Migration.report(plan, redactUsernames: true)
    var personal: Set<String> = []
    for user in plan.users {
      personal.formUnion([user.username, user.homeAccountID].compactMap { $0 } + user.otherUsernames)
    }
    for account in plan.entities([.add, .update, .unchanged, .conflict]).compactMap({ entity -> UnifiedAccount? in
      if case .account(let value) = entity { value } else { nil }
    }) {
      personal.formUnion([account.username, account.localAccountID, account.homeAccountID].compactMap { $0 })
    }
    personal = Set(personal.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    #expect(!personal.isEmpty)
    for text in [report.text(), report.json(), report.markdown()] {
      let lower = text.lowercased()
      for value in personal { #expect(!lower.contains(value), "\(name): a personal value is not redacted") }
      #expect(text.contains("user-") && text.contains("account-"))
    }
    // The same user gets the same token in every section, and again in a second rendering.
    let tokens = Set(report.users.compactMap(\.homeAccountID))
    #expect(report.users.flatMap(\.entries).compactMap(\.homeAccountID).allSatisfy { tokens.contains($0) })
    #expect(Migration.report(plan, redactUsernames: true).json() == report.json())
  }

  /// A display name and the uid inside a `client_info` are personal too: in every format a redacted report shows
  /// neither, not even decoded from base64; its JSON shows each name as a `name-` token and each `client_info`
  /// still as base64url JSON, with the uid's token and the tenant as it was.
  @Test(arguments: ["two-tenants", "upn-change", "msal-conflict", "pre27-existing-account", "sovereign-clouds"])
  func redactionHidesDisplayNamesAndTheUidInsideClientInfo(_ name: String) throws {
    let plan = try Scenario(name).plan()
    var names: Set<String> = []
    var clientInfos: [String: [String: String]] = [:]
    for entry in plan.entries {
      for entity in [entry.entity, entry.existing].compactMap({ $0 }) {
        var clientInfo: String?
        switch entity {
        case .account(let account):
          names.formUnion([account.name, account.givenName, account.familyName, account.middleName].compactMap { $0 })
          clientInfo = account.clientInfo
        case .accessToken(let token): clientInfo = token.clientInfo
        case .refreshToken(let token): clientInfo = token.clientInfo
        case .idToken(let token): clientInfo = token.clientInfo
        case .appMetadata: break
        }
        if let clientInfo { clientInfos[clientInfo] = try #require(Self.decodedClientInfo(clientInfo)) }
      }
    }
    let uids = Set(clientInfos.values.compactMap { $0["uid"]?.lowercased() })
    #expect(!names.isEmpty || !uids.isEmpty, "\(name): nothing to hide")
    let report = Migration.report(plan, redactUsernames: true)
    for text in [report.text(), report.json(), report.markdown()] {
      let decoded = EncodedText.decodedRuns(in: text).map { $0.lowercased() }
      for value in names { #expect(!ShownValue.holds(text, name: value), "\(name): \(value)") }
      for uid in uids {
        #expect(!ShownValue.holds(text, id: uid), "\(name): \(uid)")
        #expect(!decoded.contains { $0.contains(uid) }, "\(name): \(uid) decodes from the report")
      }
    }
    let entries = report.users.flatMap(\.entries) + report.otherEntries
    for entry in entries {
      for field in entry.fields + entry.existingFields {
        switch field.name {
        case "name", "given_name", "family_name", "middle_name":
          #expect(field.value.hasPrefix("name-") && field.value.count == 17, "\(name): \(field.value)")
        case "client_info":
          let shown = try #require(Self.decodedClientInfo(field.value), "\(name): \(field.value)")
          #expect(shown["uid"]?.hasPrefix("account-") == true, "\(name): \(shown)")
          #expect(clientInfos.values.contains { $0["utid"] == shown["utid"] }, "\(name): \(shown)")
        default: break
        }
      }
    }
    // Without redaction the report shows them as they are.
    let plain = Migration.report(plan).json()
    for value in names { #expect(plain.contains(value)) }
    for value in clientInfos.keys { #expect(plain.contains(value)) }
  }

  /// A `client_info` decoded: base64url JSON with string members.
  static func decodedClientInfo(_ value: String) -> [String: String]? {
    guard let data = Base64URL.decode(value) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: String]
  }

  /// A diagnostic's place is redacted as its message is: the notes of what the export for a library leaves
  /// out place an entry by its key, which starts with the home account id.
  @Test(arguments: ["adal27-home-account-id", "frt-two-apps", "duplicate-rts"])
  func redactionHidesTheIdsInADiagnosticsPlace(_ name: String) throws {
    var scenario = try Scenario(name)
    scenario.options.targetLibrary = .python
    let plan = scenario.plan()
    let homes = Set(plan.users.compactMap(\.homeAccountID).map { $0.lowercased() })
    let places = plan.diagnostics.compactMap { $0.location?.keyPath?.lowercased() }
    #expect(places.contains { place in homes.contains { place.contains($0) } }, "\(name): no id to hide")
    let report = Migration.report(plan, redactUsernames: true)
    for text in [report.text(), report.json(), report.markdown()] {
      for home in homes { #expect(!text.lowercased().contains(home), "\(name): \(home)") }
    }
  }

  /// Report entries read their fields from the plan's entities when asked (they keep no copy): every read
  /// gives the same fields, in the redacted form when the report is redacted, and a value set on an entry wins.
  @Test func entryFieldsComeFromThePlanEntitiesUntilSet() throws {
    let plan = try Scenario("msal-conflict").plan()
    for redacted in [false, true] {
      let report = Migration.report(plan, redactUsernames: redacted)
      let entries = report.users.flatMap(\.entries) + report.otherEntries
      #expect(entries.count == plan.entries.count)
      for entry in entries {
        #expect(entry.fields.map { "\($0.name)=\($0.value)" } == entry.fields.map { "\($0.name)=\($0.value)" })
        #expect(entry.fields.isEmpty == (entry.kind == nil), "only skipped items have no entity")
        if entry.action == .conflict { #expect(!entry.existingFields.isEmpty) }
        if let home = entry.field("home_account_id") { #expect(home.hasPrefix("account-") == redacted) }
        if [.accessToken, .refreshToken, .idToken].contains(entry.kind) {
          #expect(entry.field("secret")?.hasPrefix("sha256:") == true)
        }
      }
      var changed = try #require(entries.first { !$0.fields.isEmpty })
      changed.fields = [(name: "note", value: "set by a caller")]
      #expect(changed.field("note") == "set by a caller")
      #expect(changed.field("secret") == nil && changed.fields.count == 1)
      #expect(changed != entries.first { !$0.fields.isEmpty })
    }
  }

  /// Redacted reports, byte for byte: recorded with the first redactor (one search per identity), they pin its
  /// tokens and placement for any faster one (pre27-existing-account: the re-encoded `client_info`).
  @Test(arguments: ["two-tenants", "upn-change", "msal-conflict", "adfs", "pre27-existing-account"])
  func redactedReportsMatchGolden(_ name: String) throws {
    let report = Migration.report(try Scenario(name).plan(), redactUsernames: true)
    try expectGolden(report.json(), "\(name).redacted.json")
    try expectGolden(report.text(), "\(name).redacted.txt")
  }

  /// A report in each format is known as one by its first bytes (a run passes over its last report in an input
  /// directory); a dump, a unified cache or a file that only mentions the title is not.
  @Test func aReportIsKnownByItsOpening() throws {
    let report = Migration.report(try Scenario("msal-conflict").plan())
    for text in [report.text(), report.json(), report.markdown(), report.text(colorize: true)] {
      #expect(MigrationReport.isReport(opening: Data(text.utf8.prefix(64))), "\(text.prefix(80))")
    }
    for text in [
      "", "<?xml version=\"1.0\"?><plist>", #"{"AccessToken": {}}"#, "notes: adal2msal migration plan\n",
      "adal2msal migration planned", #"{"schemaVersionX": 1}"#,
    ] {
      #expect(!MigrationReport.isReport(opening: Data(text.utf8)), "\(text)")
    }
  }

  @Test func colourOnlyWhenAsked() throws {
    let report = Migration.report(try Scenario("msal-conflict").plan())
    #expect(!report.text().contains("\u{1B}"))
    let coloured = report.text(colorize: true)
    #expect(coloured.contains("\u{1B}[31mconflict"))
    #expect(coloured.contains("\u{1B}[32madd"))
    #expect(
      coloured.replacingOccurrences(of: "\u{1B}\\[[0-9]+m", with: "", options: .regularExpression) == report.text())
  }

  @Test func textFitsAWideTerminal() throws {
    for name in Scenario.names {
      let text = Migration.report(try Scenario(name).plan()).text()
      let long = text.split(separator: "\n").filter { $0.count > 120 }
      #expect(long.isEmpty, "\(name): \(long.count) line(s) over 120 columns")
    }
  }

  @Test func markdownMatchesGolden() throws {
    let report = Migration.report(try Scenario("msal-conflict").plan())
    try expectGolden(report.markdown(), "msal-conflict.md")
  }

  @Test func jsonIsValidAndCarriesTheSchemaVersion() throws {
    let json = Migration.report(try Scenario("duplicate-rts").plan()).json()
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 1)
    let summary = try #require(object["summary"] as? [String: Any])
    #expect((summary["actions"] as? [String: Int])?["skip"] == 3)
  }
}
