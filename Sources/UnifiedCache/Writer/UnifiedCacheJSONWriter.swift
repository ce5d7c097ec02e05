import Foundation

/// Writes `UnifiedCacheContents` as a unified cache JSON file that MSAL.NET, Python, Java and Node load.
///
/// The five sections always (as MSAL.NET), entities under their canonical keys in key order, then the unknown
/// sections as they were read; 4-space indentation, UTF-8 without a byte-order mark, a final newline.
public enum UnifiedCacheJSONWriter {
  public static func write(_ contents: UnifiedCacheContents) -> Data {
    var writer = JSONWriter(indent: 4)
    writer.value(.object(jsonObject(contents)))
    writer.finalNewline()
    return Data(writer.bytes)
  }

  /// The whole cache as an ordered JSON object.
  public static func jsonObject(_ contents: UnifiedCacheContents) -> JSONObject {
    var root = JSONObject()
    root[UnifiedEntityKind.accessToken.sectionName] = section(contents.accessTokens.map(AnyUnifiedEntity.accessToken))
    root[UnifiedEntityKind.refreshToken.sectionName] = section(contents.refreshTokens.map(AnyUnifiedEntity.refreshToken))
    root[UnifiedEntityKind.idToken.sectionName] = section(contents.idTokens.map(AnyUnifiedEntity.idToken))
    root[UnifiedEntityKind.account.sectionName] = section(contents.accounts.map(AnyUnifiedEntity.account))
    root[UnifiedEntityKind.appMetadata.sectionName] = section(contents.appMetadata.map(AnyUnifiedEntity.appMetadata))
    for member in contents.unknownSections where root[member.key] == nil { root[member.key] = member.value }
    return root
  }

  private static func section(_ entities: [AnyUnifiedEntity]) -> JSONValue {
    .object(JSONObject(entities.map { JSONMember($0.canonicalKey, .object(UnifiedEntityJSON.object(for: $0))) }))
  }
}
