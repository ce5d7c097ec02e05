import Adal2MSALSupport
import Foundation

/// Turns MSAL ObjC keychain items into the unified model (the same one the JSON reader produces).
///
/// Types 1001-1004, 2001/2002/2003/2007/2008 and 3001 are decoded from their JSON payload; a family refresh
/// token (2008) becomes a refresh token with its family id. Other types (legacy single-resource tokens, PRTs,
/// V1 id tokens, bound RTs) and unknown types are reported and skipped.
public struct UnifiedKeychainDecoder: Sendable {
  public var limits: InputLimits

  public init(limits: InputLimits = .default) { self.limits = limits }

  public func decode(_ items: [UnifiedKeychainItem]) -> UnifiedCacheReadResult {
    var assembler = CacheAssembler()
    for item in items { decode(item, into: &assembler) }
    return assembler.result
  }

  private func decode(_ item: UnifiedKeychainItem, into assembler: inout CacheAssembler) {
    var location = item.location
    if location.keyPath == nil { location.keyPath = "type \(item.type), account '\(item.account)'" }
    guard let type = UnifiedKeychainItemType(rawValue: item.type) else {
      assembler.report(
        Diagnostic(
          .warning, code: "unified.keychain-unknown-type", "unknown MSAL keychain item type \(item.type); skipped",
          at: location))
      return
    }
    guard let kind = type.entityKind else {
      assembler.report(
        Diagnostic(
          .note, code: "unified.keychain-unsupported-type",
          "keychain item type \(item.type) (\(type)) is not part of the unified cache; skipped", at: location))
      return
    }
    let object: JSONObject
    do {
      let value = try JSONParser(limits: limits).parse(item.payload, file: location.file)
      guard case .object(let parsed) = value else {
        assembler.report(
          Diagnostic(
            .warning, code: "unified.keychain-payload", "payload is a JSON \(value.typeName), not an object; skipped",
            at: location))
        return
      }
      object = parsed
    } catch {
      var place = location
      place.byteOffset = error.location.byteOffset
      assembler.report(
        Diagnostic(
          .warning, code: "unified.keychain-payload", "payload is not JSON: \(error.message); skipped", at: place))
      return
    }
    let decoded = EntityDecoder.decode(kind, object, path: location.keyPath ?? "", location: location)
    // A keychain item has no JSON file to be written back into: an item that cannot be modelled is skipped.
    assembler.report(EntityDecoder.skipping(decoded.diagnostics))
    guard var entity = decoded.entity else { return }
    entity = completed(entity, type: type, item: item, location: location, assembler: &assembler)
    checkAttributes(entity, item: item, location: location, assembler: &assembler)
    assembler.add(entity, fileKey: nil, location: location)
  }

  /// Fills in what the item type says and the payload left out: the account's authority type, the family id
  /// of a family refresh token (from the `generic` attribute, `<credential_type>-<family_id>-<realm>`).
  private func completed(
    _ entity: AnyUnifiedEntity, type: UnifiedKeychainItemType, item: UnifiedKeychainItem, location: SourceLocation,
    assembler: inout CacheAssembler
  ) -> AnyUnifiedEntity {
    switch entity {
    case .account(var account) where account.authorityType == nil:
      account.authorityType = type.authorityType
      return .account(account)
    case .refreshToken(var token) where type == .familyRefreshToken && !token.isFamilyToken:
      let generic = item.generic.flatMap { String(data: $0, encoding: .utf8) } ?? ""
      let parts = generic.split(separator: "-", omittingEmptySubsequences: false)
      if parts.count >= 2, !parts[1].isEmpty {
        token.familyID = String(parts[1])
      } else {
        token.familyID = "1"
        assembler.report(
          Diagnostic(
            .note, code: "unified.keychain-family-id",
            "family refresh token without family_id; using the only family, \"1\"", at: location))
      }
      return .refreshToken(token)
    default:
      return entity
    }
  }

  /// Reports an item whose `account` attribute names another account or environment than its payload.
  private func checkAttributes(
    _ entity: AnyUnifiedEntity, item: UnifiedKeychainItem, location: SourceLocation, assembler: inout CacheAssembler
  ) {
    let expected: String
    if case .appMetadata(let metadata) = entity {
      expected = metadata.environment
    } else {
      expected = "\(entity.homeAccountID ?? "")-\(entity.environment)"
    }
    let attribute = item.account.trimmedWhitespace()
    guard attribute.caseInsensitiveCompare(expected.trimmedWhitespace()) != .orderedSame else { return }
    assembler.report(
      Diagnostic(
        .warning, code: "unified.key-mismatch",
        "the item's account attribute does not match its payload ('\(expected.lowercased())' expected)", at: location))
  }
}
