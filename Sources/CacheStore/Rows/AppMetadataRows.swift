import GRDB
import UnifiedCache

/// The `app_metadata` table.
extension RowCodec {
  static let appMetadataColumns = [
    "key", "client_id", "environment", "family_id", "additional_fields", "written_form", "key_hash",
  ]

  /// Records the row of `metadata` (canonical key `key`, with its hash) for an insert of `appMetadataColumns`. The
  /// `key` column is left NULL: the key is the one the row's fields give.
  func bind(_ metadata: UnifiedAppMetadata, key: HashedKey, to row: RecordedRows) throws(CacheStoreError) {
    let texts: [String?] = [nil, metadata.clientID, metadata.environment, metadata.familyID]
    for (offset, text) in texts.enumerated() { row.bind(Int32(offset + 1), text) }
    try bindField(
      Self.jsonText(metadata.additionalFields), column: "additional_fields", rowKey: key.text,
      parameter: Int32(texts.count + 1), to: row)
    try bindField(
      Self.writtenFormText(metadata.writtenForm), column: "written_form", rowKey: key.text,
      parameter: Int32(texts.count + 2), to: row)
    row.bind(Int32(texts.count + 3), key.hash)
  }

  func appMetadata(from row: Row) throws(CacheStoreError) -> UnifiedAppMetadata {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    var metadata = UnifiedAppMetadata(
      clientID: try fields.required("client_id"),
      environment: try fields.required("environment"),
      familyID: try fields.text("family_id"),
      additionalFields: JSONObject())
    // Sealed under the row's key (its additional fields are no part of it).
    let sealedKey = sealing == nil ? key : fields.storedKey ?? metadata.canonicalKey
    metadata.additionalFields = try jsonObject(
      try fields.field("additional_fields", sealedUnder: sealedKey), rowKey: sealedKey)
    metadata.writtenForm = try writtenForm(fields, sealedUnder: sealedKey)
    return metadata
  }
}
