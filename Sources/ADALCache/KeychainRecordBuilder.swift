import Adal2MSALSupport
import Foundation

/// The attributes a record is made of, by Apple's short names, as plists and some JSON dumps have them.
enum KeychainShortName: Int, CaseIterable {
  case generic, data, dataInJSON, itemClass, account, service, accessGroup, type, created, modified, label, invisible

  /// The attribute's name in a dump.
  var key: String {
    switch self {
    case .generic: "gena"
    case .data: "v_Data"
    case .dataInJSON: "data"
    case .itemClass: "class"
    case .account: "acct"
    case .service: "svce"
    case .accessGroup: "agrp"
    case .type: "type"
    case .created: "cdat"
    case .modified: "mdat"
    case .label: "labl"
    case .invisible: "invi"
    }
  }

  /// The attribute spelled `key`, if it is one.
  init?(key: String) {
    guard let name = Self.byKey[key] else { return nil }
    self = name
  }

  private static let byKey = Dictionary(uniqueKeysWithValues: allCases.map { ($0.key, $0) })
}

/// Builds `KeychainRecord`s from one dumped item's attributes, for each dump dialect.
enum KeychainRecordBuilder {
  /// Apple's short attribute names (`KeychainShortName`). With `textEncoded`, data attributes are base64 strings
  /// (`gena` may also be plain text).
  static func shortNames(
    _ attribute: (KeychainShortName) -> Any?, textEncoded: Bool, location: SourceLocation, limits: InputLimits
  ) -> (KeychainRecord, [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    var generic: Data?
    switch attribute(.generic) {
    case let bytes as Data: generic = bytes
    case let text as String: generic = textEncoded ? genericFromText(text) : Data(text.utf8)
    default: break
    }
    var data: Data?
    switch attribute(.data) ?? attribute(.dataInJSON) {
    case let bytes as Data: data = bytes
    case let text as String:
      if let decoded = KeychainAttributeValues.base64(text) {
        data = decoded
      } else {
        diagnostics.append(
          Diagnostic(.warning, code: "adal.value-undecodable", "v_Data is not base64; ignored", at: location))
      }
    default: break
    }
    // Made once, whole: a record made first and then given its data was copied (a retain and a release of every
    // field) twice per item.
    let record = KeychainRecord(
      itemClass: KeychainAttributeValues.string(attribute(.itemClass)),
      account: KeychainAttributeValues.string(attribute(.account)),
      service: KeychainAttributeValues.string(attribute(.service)), generic: generic,
      accessGroup: KeychainAttributeValues.string(attribute(.accessGroup)),
      type: KeychainAttributeValues.integer(attribute(.type)),
      data: checkedSize(data, location: location, limits: limits, diagnostics: &diagnostics),
      created: KeychainAttributeValues.date(attribute(.created)),
      modified: KeychainAttributeValues.date(attribute(.modified)),
      label: KeychainAttributeValues.string(attribute(.label)),
      invisible: KeychainAttributeValues.bool(attribute(.invisible)), location: location)
    return (record, diagnostics)
  }

  /// The names `objection(_:location:limits:)` reads.
  static let objectionNames: Set<String> = [
    "item_class", "account", "service", "generic", "entitlement_group", "type", "create_date", "modification_date",
    "label", "invisible", "dataHex", "data",
  ]

  /// `objection ios keychain dump --json`: long names, `dataHex` preferred over the lossy UTF-8 `data`. A property
  /// list with these names gives `generic` and `data` as data: taken as they are.
  static func objection(_ item: (String) -> Any?, location: SourceLocation, limits: InputLimits) -> (
    KeychainRecord, [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    var record = KeychainRecord(
      itemClass: KeychainAttributeValues.string(item("item_class")),
      account: KeychainAttributeValues.string(item("account")),
      service: KeychainAttributeValues.string(item("service")),
      generic: bytes(item("generic")),
      accessGroup: KeychainAttributeValues.string(item("entitlement_group")),
      type: KeychainAttributeValues.integer(item("type")),
      created: KeychainAttributeValues.date(item("create_date")),
      modified: KeychainAttributeValues.date(item("modification_date")),
      label: KeychainAttributeValues.string(item("label")),
      invisible: KeychainAttributeValues.bool(item("invisible")), location: location)
    if let hex = KeychainAttributeValues.string(item("dataHex")), !hex.isEmpty {
      if let bytes = KeychainAttributeValues.hex(hex) {
        record.data = bytes
      } else {
        diagnostics.append(
          Diagnostic(.warning, code: "adal.value-undecodable", "dataHex is not hex; using data", at: location))
      }
    }
    if record.data == nil, let data = bytes(item("data")), !data.isEmpty { record.data = data }
    record.data = checkedSize(record.data, location: location, limits: limits, diagnostics: &diagnostics)
    return (record, diagnostics)
  }

  /// Data as it is, text as its UTF-8 bytes.
  private static func bytes(_ value: Any?) -> Data? {
    switch value {
    case let data as Data: data
    case let text as String: Data(text.utf8)
    default: nil
    }
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

  /// `data`, or nil (with an error) when it is over the size limit.
  private static func checkedSize(
    _ data: Data?, location: SourceLocation, limits: InputLimits, diagnostics: inout [Diagnostic]
  ) -> Data? {
    guard let data, data.count > limits.maxStringBytes else { return data }
    diagnostics.append(
      Diagnostic(
        .error, code: "adal.limit", "v_Data is \(data.count) bytes, over the limit of \(limits.maxStringBytes)",
        at: location))
    return nil
  }
}
