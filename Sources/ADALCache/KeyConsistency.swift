import Adal2MSALSupport
import Foundation

/// Cross-checks of the lookup keys ADAL stored next to an item (`svce`, a macOS blob's `ADTokenCacheKey`)
/// with the item's archived fields. Keys were lowercased (and in ADAL ≤ 2.6 the authority canonicalized to
/// `https://host/tenant`), so values are compared in that form; a difference is a warning, never fatal. Every
/// item is checked, and its values are nearly always lowercase already: they are compared without copies.
enum KeyConsistency {
  static func canonicalAuthority(_ authority: String) -> String {
    let lowered = authority.trimmedWhitespaceAndNewlines().lowercasedSharingStorage()
    guard let parsed = ADALAuthority(lowered) else { return lowered }
    return "https://\(parsed.environment)/\(parsed.tenant ?? "")"
  }

  static func normalizedResource(_ resource: String?) -> String? {
    guard let trimmed = resource?.trimmedWhitespaceAndNewlines(), !trimmed.isEmpty else { return nil }
    return trimmed.lowercasedSharingStorage()
  }

  /// Compares key fields with the item; one warning per differing field.
  /// With `memo`, authorities are made canonical once per read.
  static func compare(
    keyAuthority: String?, keyResource: String?, keyClientID: String?, item: ADALTokenItem, keyName: String,
    memo: ReadMemo? = nil
  ) -> [Diagnostic] {
    // A function, not `memo?.canonicalAuthority ?? canonicalAuthority`: that bound the memo into a closure
    // allocated for every item.
    func canonical(_ authority: String) -> String {
      memo.map { $0.canonicalAuthority(authority) } ?? canonicalAuthority(authority)
    }
    var diagnostics: [Diagnostic] = []
    func report(_ field: String, _ keyValue: String, _ itemValue: String) {
      diagnostics.append(
        Diagnostic(
          .warning, code: "adal.key-mismatch",
          "\(keyName) \(field) '\(keyValue)' differs from the archived \(field) '\(itemValue)'",
          at: item.source.location))
    }
    if let keyAuthority, !identical(keyAuthority, item.authority),
      canonical(keyAuthority) != canonical(item.authority)
    {
      report("authority", keyAuthority, item.authority)
    }
    if !identical(keyResource, item.resource), normalizedResource(keyResource) != normalizedResource(item.resource) {
      report("resource", keyResource ?? "(none)", item.resource ?? "(none)")
    }
    if let keyClientID, !identical(keyClientID, item.clientID),
      keyClientID.trimmedWhitespaceAndNewlines().lowercasedSharingStorage()
        != item.clientID.trimmedWhitespaceAndNewlines().lowercasedSharingStorage()
    {
      report("clientId", keyClientID, item.clientID)
    }
    return diagnostics
  }

  /// Whether two values are the same bytes (or both absent): their normalized forms are then equal, and are not
  /// made. Most items' keys hold their fields as archived.
  private static func identical(_ lhs: String?, _ rhs: String?) -> Bool {
    guard var lhs, var rhs else { return lhs == nil && rhs == nil }
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    return lhs.withUTF8 { left in
      rhs.withUTF8 { right in left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 }
    }
  }

  /// Decodes `svce` and compares it; an undecodable `svce` is a warning (the archive is authoritative, but
  /// MSAL would not find the item by key). With `memo`, each `svce` is decoded once per read.
  static func checkService(_ service: String?, against item: ADALTokenItem, memo: ReadMemo? = nil) -> [Diagnostic] {
    guard let service else {
      return [
        Diagnostic(
          .warning, code: "adal.service-missing", "the ADAL item has no svce attribute", at: item.source.location)
      ]
    }
    switch memo?.service(service) ?? ReadMemo.DecodedService.decode(service) {
    case .success(let decoded):
      return compare(
        keyAuthority: decoded.key.authority, keyResource: decoded.key.resource, keyClientID: decoded.key.clientID,
        item: item, keyName: "svce", memo: memo)
    case .failure(let error):
      return [
        Diagnostic(
          .warning, code: "adal.service-unreadable", "svce '\(service)' cannot be decoded: \(error)",
          at: item.source.location)
      ]
    }
  }
}
