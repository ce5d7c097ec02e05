import UnifiedCache

extension MigrationPlan {
  /// `existing` with every `add` and `update` entity written in: what a store holds after applying the plan.
  public func applied(to existing: UnifiedCacheContents) -> UnifiedCacheContents {
    var contents = existing
    for entry in entries where entry.action.writes {
      if let entity = entry.entity { contents.upsert(entity) }
    }
    return contents
  }
}
