import Adal2MSALSupport
import Foundation
import UnifiedCache

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

  /// The report as JSON indented by two spaces, keys sorted (stable for golden files); what `Codable` decodes
  /// as an `ADALInspectionReport`. Declared `throws` for its callers' sake; it does not throw.
  public static func json(_ result: ADALReadResult, revealSecrets: Bool = false) throws -> String {
    JSONText.pretty(ADALInspectionReport(result, revealSecrets: revealSecrets).jsonValue, indent: 2)
  }
}

extension ADALInspectionReport {
  /// The report as a JSON value: keys sorted and absent values left out, as `Codable` encodes it.
  public var jsonValue: JSONValue {
    .sortedObject([
      ("inputKind", .string(inputKind)), ("plistFormat", plistFormat.map(JSONValue.string)),
      ("items", .array(items.map(\.jsonValue))),
      ("unifiedItemTypes", .array(unifiedItemTypes.map { .number(String($0)) })),
      ("wipeMarkers", .number(String(wipeMarkers))), ("ignoredItems", .number(String(ignoredItems))),
      ("diagnostics", .array(diagnostics.map(\.inspectionJSON))),
    ])
  }
}

extension ADALInspectionRow {
  /// The row as a JSON value: keys sorted and absent values left out, as `Codable` encodes it.
  public var jsonValue: JSONValue {
    .sortedObject([
      ("itemIndex", itemIndex.map { .number(String($0)) }), ("kind", .string(kind)),
      ("user", user.map(JSONValue.string)),
      ("client", .string(client)), ("authority", .string(authority)), ("resource", resource.map(JSONValue.string)),
      ("familyID", familyID.map(JSONValue.string)), ("homeAccountID", homeAccountID.map(JSONValue.string)),
      ("expiresOn", expiresOn.map(JSONValue.string)), ("era", .string(era)),
      ("accessToken", accessToken.map(JSONValue.string)), ("refreshToken", refreshToken.map(JSONValue.string)),
      ("idToken", idToken.map(JSONValue.string)),
    ])
  }
}

extension Diagnostic {
  /// The diagnostic as `ADALInspectionReport.jsonValue` holds it: keys sorted, absent location fields left out.
  fileprivate var inspectionJSON: JSONValue {
    let place = location.map { place in
      JSONValue.sortedObject([
        ("file", place.file.map(JSONValue.string)), ("itemIndex", place.itemIndex.map { .number(String($0)) }),
        ("byteOffset", place.byteOffset.map { .number(String($0)) }), ("line", place.line.map { .number(String($0)) }),
        ("column", place.column.map { .number(String($0)) }), ("keyPath", place.keyPath.map(JSONValue.string)),
      ])
    }
    return .sortedObject([
      ("severity", .string(severity.rawValue)), ("code", .string(code)), ("message", .string(message)),
      ("location", place),
    ])
  }
}
