import Adal2MSALSupport
import Foundation

/// Builds `KeychainRecord`s from one dumped item's attributes, for each dump dialect.
enum KeychainRecordBuilder {
  /// Apple's short attribute names (`acct`, `svce`, `gena`, `v_Data`, …), as plists and some JSON dumps
  /// have them. With `textEncoded`, data attributes are base64 strings (`gena` may also be plain text).
  static func shortNames(
    _ attribute: (String) -> Any?, textEncoded: Bool, location: SourceLocation, limits: InputLimits
  ) -> (KeychainRecord, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    var record = KeychainRecord(
      itemClass: KeychainAttributeValues.string(attribute("class")),
      account: KeychainAttributeValues.string(attribute("acct")),
      service: KeychainAttributeValues.string(attribute("svce")),
      accessGroup: KeychainAttributeValues.string(attribute("agrp")),
      type: KeychainAttributeValues.integer(attribute("type")),
      created: KeychainAttributeValues.date(attribute("cdat")),
      modified: KeychainAttributeValues.date(attribute("mdat")),
      label: KeychainAttributeValues.string(attribute("labl")),
      invisible: KeychainAttributeValues.bool(attribute("invi")), location: location)
    switch attribute("gena") {
    case let bytes as Data: record.generic = bytes
    case let text as String: record.generic = textEncoded ? genericFromText(text) : Data(text.utf8)
    default: break
    }
    let payload = attribute("v_Data") ?? attribute("data")
    switch payload {
    case let bytes as Data: record.data = bytes
    case let text as String:
      if let decoded = KeychainAttributeValues.base64(text) {
        record.data = decoded
      } else {
        diagnostics.append(
          Diagnostic(.warning, code: "adal.value-undecodable", "v_Data is not base64; ignored", at: location))
      }
    default: break
    }
    checkSize(&record, limits: limits, diagnostics: &diagnostics)
    return (record, diagnostics)
  }

  /// `objection ios keychain dump --json`: long names, `dataHex` preferred over the lossy UTF-8 `data`.
  static func objection(_ item: [String: Any], location: SourceLocation, limits: InputLimits) -> (
    KeychainRecord, [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    var record = KeychainRecord(
      itemClass: KeychainAttributeValues.string(item["item_class"]),
      account: KeychainAttributeValues.string(item["account"]),
      service: KeychainAttributeValues.string(item["service"]),
      generic: KeychainAttributeValues.string(item["generic"]).map { Data($0.utf8) },
      accessGroup: KeychainAttributeValues.string(item["entitlement_group"]),
      type: KeychainAttributeValues.integer(item["type"]),
      created: KeychainAttributeValues.date(item["create_date"]),
      modified: KeychainAttributeValues.date(item["modification_date"]),
      label: KeychainAttributeValues.string(item["label"]),
      invisible: KeychainAttributeValues.bool(item["invisible"]), location: location)
    if let hex = KeychainAttributeValues.string(item["dataHex"]), !hex.isEmpty {
      if let bytes = KeychainAttributeValues.hex(hex) {
        record.data = bytes
      } else {
        diagnostics.append(
          Diagnostic(.warning, code: "adal.value-undecodable", "dataHex is not hex; using data", at: location))
      }
    }
    if record.data == nil, let text = KeychainAttributeValues.string(item["data"]), !text.isEmpty {
      record.data = Data(text.utf8)
    }
    checkSize(&record, limits: limits, diagnostics: &diagnostics)
    return (record, diagnostics)
  }

  /// `gena` given as text in a base64 dump: a known marker or non-base64 text is taken literally, otherwise
  /// the base64 is decoded if it gives printable UTF-8.
  private static func genericFromText(_ text: String) -> Data {
    let literal = Data(text.utf8)
    if text == ADALKeychainService.libraryString || text == KeychainRecord.wipeGeneric { return literal }
    guard let decoded = Data(base64Encoded: text), let string = String(data: decoded, encoding: .utf8),
      !string.isEmpty, !string.unicodeScalars.contains(where: \.isControlOrFormat)
    else { return literal }
    return decoded
  }

  private static func checkSize(_ record: inout KeychainRecord, limits: InputLimits, diagnostics: inout [Diagnostic]) {
    if let data = record.data, data.count > limits.maxStringBytes {
      record.data = nil
      diagnostics.append(
        Diagnostic(
          .error, code: "adal.limit", "v_Data is \(data.count) bytes, over the limit of \(limits.maxStringBytes)",
          at: record.location))
    }
  }
}
