import Adal2MSALSupport
import Foundation
import GRDB
import UnifiedCache

/// Turns entities into column values and rows back into entities. Shared helpers live here; one file per
/// table holds its column list and its two conversions.
struct RowCodec: Sendable {
  let sealing: SecretSealing?
  /// The store file, for error locations.
  let file: String
  /// Whether the store was sealed by an earlier version (`CacheStore.clearFieldsEncryptionScheme`), which sealed
  /// only `secret`: the columns that `sealField` seals may hold their text in clear, and are read so, until the
  /// store's next run seals them (`CacheStore.sealClearFields`). Sealed values open all the same.
  var clearFieldsAllowed = false

  /// The `secret` column value: the token as TEXT, or sealed as a BLOB when the store is encrypted.
  func secretValue(_ secret: UnifiedSecret, rowKey: String) throws(CacheStoreError) -> DatabaseValue {
    guard let sealing else { return secret.value.databaseValue }
    return try sealing.seal(secret.value, rowKey: rowKey, file: file).databaseValue
  }

  /// The secret of a row, opened when sealed.
  func secret(from row: Row, rowKey: String) throws(CacheStoreError) -> UnifiedSecret {
    let value: DatabaseValue = row["secret"]
    switch (value.storage, sealing) {
    case (.string(let text), nil):
      return UnifiedSecret(text)
    case (.blob(let sealed), let sealing?):
      return UnifiedSecret(try sealing.open(sealed, rowKey: rowKey, file: file))
    case (.blob, nil):
      throw corrupt("a sealed secret in a store opened without a key", rowKey: rowKey)
    default:
      throw corrupt("a secret that is not sealed in an encrypted store", rowKey: rowKey)
    }
  }

  /// The value of a column that keeps input as it was read (`additional_fields`, `written_form`,
  /// `unknown_sections.value`) for the row `rowKey`: the text, or sealed as a BLOB when the store is encrypted
  /// (`SecretSealing.sealField`). Empty `additional_fields` (`{}`, most entities') hold nothing of the input and
  /// stay in clear: an entity's row seals no more than the input gave it (an account made from ADAL items, none).
  func fieldValue(_ text: String?, column: String, rowKey: String) throws(CacheStoreError) -> DatabaseValue {
    guard let text else { return .null }
    guard let sealing, !Self.isEmptyField(text, column: column) else { return text.databaseValue }
    return try sealing.sealField(text, column: column, rowKey: rowKey, file: file).databaseValue
  }

  /// Whether `text` is the empty value of `column` that `fieldValue` leaves in clear.
  static func isEmptyField(_ text: String, column: String) -> Bool {
    text == "{}" && column == "additional_fields"
  }

  /// Binds `fieldValue` to the parameter `parameter` of `row`; without a key, the text as every other text.
  func bindField(
    _ text: String?, column: String, rowKey: String, parameter: Int32, to row: RecordedRows
  ) throws(CacheStoreError) {
    guard sealing != nil else { return row.bind(parameter, text) }
    row.bind(parameter, try fieldValue(text, column: column, rowKey: rowKey))
  }

  /// The text of a column that `fieldValue` wrote, opened when sealed.
  func fieldText(_ value: DatabaseValue, column: String, rowKey: String) throws(CacheStoreError) -> String? {
    switch (value.storage, sealing) {
    case (.null, _):
      return nil
    case (.string(let text), nil):
      return text
    case (.string(let text), _?) where clearFieldsAllowed || Self.isEmptyField(text, column: column):
      return text
    case (.blob(let sealed), let sealing?):
      return try sealing.openField(sealed, column: column, rowKey: rowKey, file: file)
    case (.blob, nil):
      throw corrupt("a sealed \(column) in a store opened without a key", rowKey: rowKey)
    case (.string, _?):
      throw corrupt("\(Wording.indefinite(column)) that is not sealed in an encrypted store", rowKey: rowKey)
    default:
      throw corrupt("\(Wording.indefinite(column)) that is not text", rowKey: rowKey)
    }
  }

  /// The key that seals a row's `additional_fields` and `written_form`: its canonical key as its other fields
  /// give it. An `ATExt` access token's key names a digest of its `ext`, one of its additional fields; every
  /// other entity's key is its canonical key.
  static func fieldsKey(of entity: AnyUnifiedEntity) -> String {
    if case .accessToken(var token) = entity, !token.additionalFields.isEmpty {
      token.additionalFields = JSONObject()
      return token.canonicalKey
    }
    return entity.canonicalKey
  }

  /// `additional_fields`: the unknown fields as compact JSON, key order and number text kept.
  static func jsonText(_ object: JSONObject) -> String {
    // Most entities have no unknown field: no writer for them.
    object.isEmpty ? "{}" : JSONText.compact(.object(object))
  }

  func jsonObject(_ text: String?, rowKey: String) throws(CacheStoreError) -> JSONObject {
    guard let text, !text.isEmpty else { return JSONObject() }
    do {
      guard let object = try JSONParser().parse(Data(text.utf8)).objectValue else {
        throw corrupt("additional_fields is not a JSON object", rowKey: rowKey)
      }
      return object
    } catch {
      throw corrupt("additional_fields is not valid JSON", rowKey: rowKey)
    }
  }

  /// `written_form`: the key and field names an entry had in its file, as compact JSON
  /// (`{"key": …, "names": {field: [names]}}`); NULL when there is nothing to remember (entities made from ADAL).
  static func writtenFormText(_ form: WrittenForm) -> String? {
    guard !form.isEmpty else { return nil }
    var object = JSONObject()
    if let key = form.key { object["key"] = .string(key) }
    if !form.fieldNames.isEmpty {
      object["names"] = .object(
        JSONObject(
          form.fieldNames.sorted { $0.key < $1.key }.map { JSONMember($0.key, .array($0.value.map(JSONValue.string))) })
      )
    }
    if !form.values.isEmpty {
      object["values"] = .object(
        JSONObject(form.values.sorted { $0.key < $1.key }.map { JSONMember($0.key, $0.value) }))
    }
    return JSONText.compact(.object(object))
  }

  /// The row's `written_form`, opened with `sealedUnder` (`fieldsKey(of:)`) when sealed.
  func writtenForm(_ fields: RowFields, sealedUnder rowKey: String) throws(CacheStoreError) -> WrittenForm {
    guard let text = try fields.field("written_form", sealedUnder: rowKey) else { return WrittenForm() }
    let object = try jsonObject(text, rowKey: fields.key)
    guard object["key"].map({ $0.stringValue != nil }) ?? true else {
      throw corrupt("a written_form whose key is not text", rowKey: fields.key)
    }
    var names: [String: [String]] = [:]
    for member in object["names"]?.objectValue ?? [:] {
      guard case .array(let values) = member.value else {
        throw corrupt("a written_form with malformed names", rowKey: fields.key)
      }
      let spelled = values.compactMap(\.stringValue)
      // An empty list: the field was not written at all (a realm the model defaults).
      guard spelled.count == values.count else {
        throw corrupt("a written_form with malformed names", rowKey: fields.key)
      }
      names[member.key] = spelled
    }
    var values: [String: JSONValue] = [:]
    for member in object["values"]?.objectValue ?? [:] { values[member.key] = member.value }
    return WrittenForm(key: object["key"]?.stringValue, fieldNames: names, values: values)
  }

  /// Dates as epoch seconds (INTEGER for whole seconds, the column affinity keeps a fraction as REAL).
  static func epoch(_ date: Date?) -> DatabaseValue {
    guard let date else { return .null }
    return date.timeIntervalSince1970.databaseValue
  }

  func corrupt(_ what: String, rowKey: String) -> CacheStoreError {
    CacheStoreError(
      .corruptRow, "the store holds \(what)",
      at: SourceLocation(file: file, keyPath: rowKey))
  }

  /// `home_account_id` as looked up by `accountForIdentifier`: lowercased.
  static func normalizedHomeAccountID(_ id: String) -> String { id.lowercasedSharingStorage() }
}

/// The columns of one row, read through `DatabaseValue` so that a tampered file (a number or blob where text
/// belongs, a NULL in a required column) is a corrupt-row error and never a crash in GRDB's conversions.
struct RowFields {
  let row: Row
  /// The row's `key` column: NULL (nil) when the key is the one the row's fields give (schema v8).
  let storedKey: String?
  /// How errors name the row: its stored key, or its id when the key is derived.
  let key: String
  let codec: RowCodec

  init(_ row: Row, codec: RowCodec) throws(CacheStoreError) {
    switch (row["key"] as DatabaseValue).storage {
    case .null:
      storedKey = nil
      key = "row \(Int64.fromDatabaseValue(row["id"]) ?? 0)"
    case .string(let text):
      storedKey = text
      key = text
    default:
      throw codec.corrupt("a row whose key is not text", rowKey: "")
    }
    self.row = row
    self.codec = codec
  }

  /// A text column that may be NULL.
  func text(_ column: String) throws(CacheStoreError) -> String? {
    switch (row[column] as DatabaseValue).storage {
    case .null: return nil
    case .string(let text): return text
    default: throw codec.corrupt("\(Wording.indefinite(column)) that is not text", rowKey: key)
    }
  }

  /// A column that `RowCodec.fieldValue` wrote for the row `rowKey`, opened when sealed.
  func field(_ column: String, sealedUnder rowKey: String) throws(CacheStoreError) -> String? {
    try codec.fieldText(row[column], column: column, rowKey: rowKey)
  }

  /// A text column that must be present.
  func required(_ column: String) throws(CacheStoreError) -> String {
    guard let value = try text(column) else { throw codec.corrupt("no \(column)", rowKey: key) }
    return value
  }

  /// A date column: NULL, or INTEGER or REAL epoch seconds.
  func date(_ column: String) throws(CacheStoreError) -> Date? {
    switch (row[column] as DatabaseValue).storage {
    case .null: return nil
    case .int64(let seconds): return Date(timeIntervalSince1970: Double(seconds))
    case .double(let seconds): return Date(timeIntervalSince1970: seconds)
    default: throw codec.corrupt("\(Wording.indefinite(column)) that is not a number", rowKey: key)
    }
  }
}
