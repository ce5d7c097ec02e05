import Adal2MSALSupport
import Foundation

/// One item as `adal2msal inspect` shows it: secrets as fingerprints, unless the caller asks to reveal them.
public struct ADALInspectionRow: Sendable, Hashable, Codable {
  public var itemIndex: Int?
  public var kind: String
  public var user: String?
  public var client: String
  public var authority: String
  public var resource: String?
  public var familyID: String?
  public var homeAccountID: String?
  /// ISO 8601.
  public var expiresOn: String?
  public var era: String
  public var accessToken: String?
  public var refreshToken: String?
  public var idToken: String?

  /// - Parameter revealSecrets: show the tokens themselves (`inspect --show-secrets`) instead of fingerprints.
  public init(_ item: ADALTokenItem, revealSecrets: Bool = false) {
    itemIndex = item.source.itemIndex
    kind = item.kind.description
    user = item.userID
    client = item.clientID
    authority = item.authority
    resource = item.resource
    familyID = item.familyID
    homeAccountID = item.homeAccountID
    expiresOn = item.expiresOn.map(ADALValue.iso8601)
    era = item.source.era.rawValue
    let show = { (secret: ADALSecret?) in revealSecrets ? secret?.value : secret?.fingerprint }
    accessToken = show(item.accessToken)
    refreshToken = show(item.refreshToken)
    idToken = show(item.idToken)
  }
}

/// The whole of an `ADALReadResult` as `inspect --format json` prints it.
public struct ADALInspectionReport: Sendable, Hashable, Codable {
  public var inputKind: String
  public var plistFormat: String?
  public var items: [ADALInspectionRow]
  public var unifiedItemTypes: [Int]
  public var wipeMarkers: Int
  public var ignoredItems: Int
  public var diagnostics: [Diagnostic]

  public init(_ result: ADALReadResult, revealSecrets: Bool = false) {
    inputKind = result.inputKind.rawValue
    plistFormat = result.plistFormat?.rawValue
    items = result.items.map { ADALInspectionRow($0, revealSecrets: revealSecrets) }
    unifiedItemTypes = result.unifiedItems.map(\.type)
    wipeMarkers = result.wipeMarkers.count
    ignoredItems = result.ignoredItemCount
    diagnostics = result.diagnostics
  }
}

/// Renders an `ADALReadResult` for `adal2msal inspect`: text lines (one per item) or JSON.
public enum ADALInspection {
  /// One line per item, then a summary line and the diagnostics:
  /// `#3 MRRT user=alice@contoso.com client=… authority=… resource=- expires=- rt=sha256:…`.
  public static func textLines(_ result: ADALReadResult, revealSecrets: Bool = false) -> [String] {
    var lines = result.items.map { line($0, revealSecrets: revealSecrets) }
    var summary = "\(result.items.count) ADAL item(s) from \(result.inputKind.rawValue)"
    if !result.unifiedItems.isEmpty { summary += ", \(result.unifiedItems.count) unified item(s)" }
    if !result.wipeMarkers.isEmpty { summary += ", \(result.wipeMarkers.count) wipe marker(s)" }
    if result.ignoredItemCount > 0 { summary += ", \(result.ignoredItemCount) other item(s) ignored" }
    lines.append(summary)
    lines += result.diagnostics.map(\.description)
    return lines
  }

  /// One item's line.
  public static func line(_ item: ADALTokenItem, revealSecrets: Bool = false) -> String {
    let row = ADALInspectionRow(item, revealSecrets: revealSecrets)
    var parts = [
      row.itemIndex.map { "#\($0)" } ?? "#-", row.kind, "user=\(row.user ?? "-")", "client=\(row.client)",
      "authority=\(row.authority)", "resource=\(row.resource ?? "-")", "expires=\(row.expiresOn ?? "-")",
    ]
    if let at = row.accessToken { parts.append("at=\(at)") }
    if let rt = row.refreshToken { parts.append("rt=\(rt)") }
    if let id = row.idToken { parts.append("id=\(id)") }
    return parts.joined(separator: " ")
  }

  /// The report as pretty-printed JSON with sorted keys (stable for golden files).
  public static func json(_ result: ADALReadResult, revealSecrets: Bool = false) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(ADALInspectionReport(result, revealSecrets: revealSecrets))
    return String(decoding: data, as: UTF8.self)
  }
}
