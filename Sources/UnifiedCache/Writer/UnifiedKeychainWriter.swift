import Adal2MSALSupport
import Foundation

/// Writes the cache as MSAL ObjC keychain items (IdentityCore's layout), for an importer on the device.
///
/// The output is a JSON array with one object per item, under the keychain's own attribute names (the values
/// of `kSecClass`, `kSecAttrAccount`, ... are `class`, `acct`, ...), `gena` and `v_Data` in base64: the format
/// the keychain-dump reader takes as input, and what docs/objc-keychain-import.md's importer hands to
/// `SecItemAdd`. `agrp` is the access group without the team prefix, which the importer adds.
/// Layout (docs/unified-cache-keys.md, "MSAL ObjC keychain items"): credentials under `<home>-<env>`, `gena`
/// `<type>-<client or family>-<realm>`, `svce` that plus `-<target>`; a family refresh token also as a plain
/// refresh token of its client, as MSAL ObjC writes it. Credentials and accounts go under their cloud's cache host
/// (`login.windows.net` for the public cloud), as MSAL ObjC writes them (`MSALNetCacheHost`).
public enum UnifiedKeychainWriter {
  /// The access group MSAL ObjC uses on iOS unless the app configures another.
  public static let defaultAccessGroup = "com.microsoft.adalcache"

  public static func export(_ contents: UnifiedCacheContents, accessGroup: String = defaultAccessGroup) -> CacheExport {
    var items: [JSONValue] = []
    var written: [String: (entity: AnyUnifiedEntity, index: Int, atHost: Bool)] = [:]
    var diagnostics: [Diagnostic] = []
    /// `copy`: the plain refresh token item MSAL ObjC writes beside a family token, which an app refresh token of
    /// the same client holds already when there is one. `atHost`: the entity was read under the host it is written
    /// under; of two that fall on one item, such an entity wins over one moved there (MSAL ObjC wrote it there).
    func add(_ item: Item, of entity: AnyUnifiedEntity, atHost: Bool, copy: Bool = false) {
      // MSAL ObjC finds an item by (group, service, account, type): one item per such tuple.
      let address = "\(item.type)\u{0}\(item.account)\u{0}\(item.service)"
      if let kept = written[address] {
        if copy { return }
        if atHost && !kept.atHost {
          diagnostics.append(sameItem(item, kept: entity, left: kept.entity))
          items[kept.index] = item.json(accessGroup: accessGroup)
          written[address] = (entity, kept.index, atHost)
        } else {
          diagnostics.append(sameItem(item, kept: kept.entity, left: entity))
        }
        return
      }
      written[address] = (entity, items.count, atHost)
      items.append(item.json(accessGroup: accessGroup))
    }
    for read in contents.accessTokens {
      let token = MSALNetCacheHost.moving(read)
      let item = accessToken(token)
      if let unusable = CacheExport.unloadable(
        token, for: .objc, at: SourceLocation(keyPath: "\(item.account)|\(item.service)"))
      {
        diagnostics.append(unusable)
        continue
      }
      add(item, of: .accessToken(token), atHost: token.environment == read.environment)
    }
    let appTokens = contents.refreshTokens.filter { !$0.isFamilyToken }
    for read in appTokens {
      let token = MSALNetCacheHost.moving(read)
      add(refreshToken(token), of: .refreshToken(token), atHost: token.environment == read.environment)
    }
    for read in contents.refreshTokens where read.isFamilyToken {
      let token = MSALNetCacheHost.moving(read)
      let atHost = token.environment == read.environment
      add(refreshToken(token), of: .refreshToken(token), atHost: atHost)
      var plain = token
      plain.familyID = nil
      add(refreshToken(plain), of: .refreshToken(token), atHost: atHost, copy: true)
    }
    for read in contents.idTokens {
      let token = MSALNetCacheHost.moving(read)
      add(idToken(token), of: .idToken(token), atHost: token.environment == read.environment)
    }
    for read in contents.accounts {
      let account = MSALNetCacheHost.moving(read)
      add(accountItem(account), of: .account(account), atHost: account.environment == read.environment)
    }
    for metadata in contents.appMetadata { add(appMetadataItem(metadata), of: .appMetadata(metadata), atHost: true) }
    var writer = JSONWriter(indent: 2)
    writer.value(.array(items))
    writer.finalNewline()
    return CacheExport(data: Data(writer.bytes), diagnostics: diagnostics)
  }

  /// Two entries the cache keys apart that MSAL ObjC would store as one item (its parts are trimmed and
  /// lowercased: a client id with a trailing space): a note when both are one token, else a warning naming the one
  /// left out, as the JSON exports name entries their library keys alike. Dropped unsaid, they were lost.
  private static func sameItem(_ item: Item, kept: AnyUnifiedEntity, left: AnyUnifiedEntity) -> Diagnostic {
    let place = SourceLocation(keyPath: "\(item.account)|\(item.service)")
    let alike = "MSAL ObjC stores two \(kept.kind.rawValue) entries as one item"
    if let one = kept.secret, one == left.secret {
      return Diagnostic(
        .note, code: CacheExport.sameTokenCode, "\(alike), and both are one token: wrote it once", at: place)
    }
    return CacheExport.storedAsOne(alike, kept: kept, left: left, leftReadAt: nil, library: .objc, at: place)
  }

  /// Where MSAL ObjC finds the item of `entity`, with its type: `<acct>|<svce>` (a family refresh token's
  /// family item; its plain copy is under the client id).
  public static func address(of entity: AnyUnifiedEntity) -> String {
    let item: Item
    switch entity {
    case .accessToken(let token): item = accessToken(token)
    case .refreshToken(let token): item = refreshToken(token)
    case .idToken(let token): item = idToken(token)
    case .account(let account): item = accountItem(account)
    case .appMetadata(let metadata): item = appMetadataItem(metadata)
    }
    return "\(item.account)|\(item.service)"
  }

  private struct Item {
    var account: String
    var service: String
    var generic: String
    var type: Int
    var payload: JSONObject

    func json(accessGroup: String) -> JSONValue {
      return .object([
        "class": .string("genp"),
        "acct": .string(account),
        "svce": .string(service),
        "gena": .string(Data(generic.utf8).base64EncodedString()),
        "agrp": .string(accessGroup),
        "pdmn": .string("cku"),  // kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, as MSAL ObjC adds items
        "type": .number(String(type)),
        "v_Data": .string(Data(JSONText.compact(.object(payload)).utf8).base64EncodedString()),
      ])
    }
  }

  private static func part(_ text: String) -> String { text.trimmingCharacters(in: .whitespaces).lowercased() }
  private static func join(_ parts: [String]) -> String { parts.map(part).joined(separator: "-") }

  private static func accessToken(_ token: UnifiedAccessToken) -> Item {
    let descriptor = token.isBearer ? "accesstoken" : "accesstoken_with_authscheme"
    let generic = join([descriptor, token.clientID, token.realm])
    var service = join([descriptor, token.clientID, token.realm, token.target])
    if !token.isBearer { service += "-" + part(token.tokenType ?? "") }
    if let claims = token.requestedClaims, !claims.isEmpty {
      service += "|" + SecretFingerprint.sha256Hex(Data(claims.utf8)).prefix(7)
    }
    return Item(
      account: join([token.homeAccountID, token.environment]), service: service, generic: generic,
      type: token.isBearer
        ? UnifiedKeychainItemType.accessToken.rawValue : UnifiedKeychainItemType.accessTokenWithAuthScheme.rawValue,
      payload: UnifiedEntityJSON.object(for: token, library: .objc))
  }

  private static func refreshToken(_ token: UnifiedRefreshToken) -> Item {
    let generic = join(["refreshtoken", token.effectiveFamilyID ?? token.clientID, ""])
    return Item(
      account: join([token.homeAccountID, token.environment]), service: generic + "-", generic: generic,
      type: UnifiedKeychainItemType.refreshToken.rawValue,
      payload: UnifiedEntityJSON.object(for: token, library: .objc))
  }

  private static func idToken(_ token: UnifiedIdToken) -> Item {
    let generic = join(["idtoken", token.clientID, token.realm])
    return Item(
      account: join([token.homeAccountID, token.environment]), service: generic + "-", generic: generic,
      type: UnifiedKeychainItemType.idToken.rawValue, payload: UnifiedEntityJSON.object(for: token))
  }

  private static func accountItem(_ account: UnifiedAccount) -> Item {
    let type = UnifiedKeychainItemType.allCases.first {
      $0.authorityType != nil && $0.authorityType == account.authorityType
    }
    return Item(
      account: join([account.homeAccountID, account.environment]), service: part(account.realm),
      generic: part(account.username ?? ""), type: (type ?? .accountOther).rawValue,
      payload: UnifiedEntityJSON.object(for: account))
  }

  private static func appMetadataItem(_ metadata: UnifiedAppMetadata) -> Item {
    Item(
      account: metadata.environment, service: "appmetadata-" + part(metadata.clientID),
      generic: metadata.familyID ?? "", type: UnifiedKeychainItemType.appMetadata.rawValue,
      payload: UnifiedEntityJSON.object(for: metadata, library: .objc))
  }
}
