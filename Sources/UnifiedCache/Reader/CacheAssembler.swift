import Adal2MSALSupport

/// Collects decoded entities into `UnifiedCacheContents` under their canonical keys.
///
/// Entries that describe the same entity (their keys differ only in case or style) become one: the entry
/// whose file key is the canonical key wins, then one with an all-lowercase key (MSAL Go v1.1 over v1.0),
/// then the first. A file key that does not name the entity its fields describe is reported, never fatal.
/// Two such credentials that hold different tokens under keys of one style are a problem
/// (`unified.duplicate-token`): which of the two its app wrote last cannot be told offline, and the first is
/// kept by no rule that knows.
struct CacheAssembler {
  private(set) var contents = UnifiedCacheContents()
  private(set) var diagnostics: [Diagnostic] = []
  /// The rank of the file key each kept entity came from, by canonical key.
  private var ranks: [String: Int] = [:]

  mutating func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
  mutating func report(_ more: [Diagnostic]) { diagnostics.append(contentsOf: more) }

  /// Adds an entity read under `fileKey` (nil for keychain items, which have no single key).
  mutating func add(_ entity: AnyUnifiedEntity, fileKey: String?, location: SourceLocation) {
    let canonical = entity.canonicalKey
    if let fileKey, !KeyStyles.agrees(fileKey: fileKey, with: entity) {
      diagnostics.append(
        Diagnostic(
          .warning, code: "unified.key-mismatch",
          "the entry's key does not match its fields; it is stored under the key computed from its fields '\(canonical)'",
          at: location))
    }
    let rank = fileKey.map { $0 == canonical ? 0 : ($0 == $0.lowercased() ? 1 : 2) } ?? 1
    let kindKey = "\(entity.kind.rawValue)\u{0}\(canonical)"
    guard let previousRank = ranks[kindKey], let previous = existing(entity) else {
      ranks[kindKey] = rank
      contents.upsert(entity)
      return
    }
    let replace = rank < previousRank
    let same = previous == entity
    if rank == previousRank, let kept = previous.secret, let other = entity.secret, kept != other {
      diagnostics.append(
        Diagnostic(
          .warning, code: "unified.duplicate-token",
          "another entry describes the same \(entity.kind.rawValue) '\(canonical)' under a key of the same style, "
            + "with another token: the earlier entry (\(kept.fingerprint)) is kept and this one (\(other.fingerprint)) "
            + "left out; which of the two the app wrote last cannot be told offline",
          at: location))
      return
    }
    diagnostics.append(
      Diagnostic(
        same ? .note : .warning, code: "unified.duplicate-entity",
        "another entry describes the same \(entity.kind.rawValue) '\(canonical)'"
          + (same ? " with the same fields" : " with different fields")
          + (replace ? "; this entry is kept" : "; the earlier entry is kept"),
        at: location))
    if replace {
      ranks[kindKey] = rank
      contents.upsert(entity)
    }
  }

  private func existing(_ entity: AnyUnifiedEntity) -> AnyUnifiedEntity? {
    let key = entity.canonicalKey
    switch entity {
    case .account: return contents.accounts[key].map(AnyUnifiedEntity.account)
    case .accessToken: return contents.accessTokens[key].map(AnyUnifiedEntity.accessToken)
    case .refreshToken: return contents.refreshTokens[key].map(AnyUnifiedEntity.refreshToken)
    case .idToken: return contents.idTokens[key].map(AnyUnifiedEntity.idToken)
    case .appMetadata: return contents.appMetadata[key].map(AnyUnifiedEntity.appMetadata)
    }
  }

  mutating func setUnknownSections(_ sections: JSONObject) { contents.unknownSections = sections }

  var result: UnifiedCacheReadResult { UnifiedCacheReadResult(contents: contents, diagnostics: diagnostics) }
}
