import GRDB
import UnifiedCache

/// The `app_metadata` table.
extension RowCodec {
  static let appMetadataColumns = ["key", "client_id", "environment", "family_id", "additional_fields"]

  func arguments(for metadata: UnifiedAppMetadata) -> StatementArguments {
    let values: [(any DatabaseValueConvertible)?] = [
      metadata.canonicalKey, metadata.clientID, metadata.environment, metadata.familyID,
      Self.jsonText(metadata.additionalFields),
    ]
    return StatementArguments(values)
  }

  func appMetadata(from row: Row) throws(CacheStoreError) -> UnifiedAppMetadata {
    let key: String = row["key"]
    return UnifiedAppMetadata(
      clientID: row["client_id"], environment: row["environment"], familyID: row["family_id"],
      additionalFields: try jsonObject(row["additional_fields"], rowKey: key))
  }
}
