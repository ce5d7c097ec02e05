import GRDB
import UnifiedCache

/// The `app_metadata` table.
extension RowCodec {
  static let appMetadataColumns = [
    "key", "client_id", "environment", "family_id", "additional_fields", "written_form", "key_hash",
  ]

  /// Records the row of `metadata` (canonical key `key`, with its hash) for an insert of `appMetadataColumns`. The
  /// `key` column is left NULL: the key is the one the row's fields give.
  func bind(_ metadata: UnifiedAppMetadata, key: HashedKey, to row: RecordedRows) {
    let texts: [String?] = [
      nil, metadata.clientID, metadata.environment, metadata.familyID, Self.jsonText(metadata.additionalFields),
      Self.writtenFormText(metadata.writtenForm),
    ]
    for (offset, text) in texts.enumerated() { row.bind(Int32(offset + 1), text) }
    row.bind(Int32(texts.count + 1), key.hash)
  }

  func appMetadata(from row: Row) throws(CacheStoreError) -> UnifiedAppMetadata {
    let fields = try RowFields(row, codec: self)
    let key = fields.key
    var metadata = UnifiedAppMetadata(
      clientID: try fields.required("client_id"),
      environment: try fields.required("environment"),
      familyID: try fields.text("family_id"),
      additionalFields: try jsonObject(try fields.text("additional_fields"), rowKey: key))
    metadata.writtenForm = try writtenForm(fields)
    return metadata
  }
}
