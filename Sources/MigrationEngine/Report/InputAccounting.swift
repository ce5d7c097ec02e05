import Adal2MSALSupport
import Foundation
import UnifiedCache

/// Where every input item or entry of a run ended, per file: each lands in exactly one bucket, so that the
/// buckets of a file add up to the items read from it (docs/verdicts.md).
///
/// An ADAL item is counted once (by file and item index) with the best of what its plan entries did:
/// migrated (some entity it gave is written) > unchanged > merged (it lost to a survivor the entry names) >
/// skipped by policy > not migrated (a problem), each entry by `RunVerdict.bucket(of:reasonCode:)`. Its refresh and
/// access tokens' entries decide; the Account, id token and app metadata, which name every item of their user or
/// app as a source, count only for an item no such entry names (else an item whose tokens were all merged into
/// others or expired would be "migrated" by its user's Account). An MSAL entry is counted by its file, kind and
/// key; entries a reader merged, could not use or kept verbatim are counted from the reader's diagnostics
/// (`RunVerdict.bucket(of:)`).
public struct InputAccounting: Sendable {
  /// The buckets, from best to worst.
  public enum Bucket: UInt8, Sendable, Hashable, CaseIterable, Comparable {
    case migrated = 5
    case unchanged = 4
    case merged = 3
    case policySkip = 2
    case problem = 1

    public static func < (lhs: Bucket, rhs: Bucket) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// One file's totals.
  public struct FileTotals: Sendable, Hashable {
    public var counts: [Bucket: Int] = [:]
    /// Keychain items that are neither ADAL nor MSAL items (other apps' items): skipped by policy.
    public var ignored = 0

    public init() {}

    public subscript(_ bucket: Bucket) -> Int { counts[bucket] ?? 0 }
    /// Every item or entry of the file.
    public var total: Int { counts.values.reduce(ignored, +) }
  }

  /// ADAL items by file, indexed by item index: the best rank so far (0 = not seen; `rank`).
  private var items: [String: [UInt8]] = [:]
  /// MSAL entries and diagnostics-only items by file: unit → best bucket.
  private var units: [String: [String: Bucket]] = [:]
  private var ignored: [String: Int] = [:]

  public init() {}

  /// Adds one plan (a part of a run, or the rest).
  public mutating func add(_ plan: MigrationPlan) {
    // The slots of the file last noted, held out of `items` until another file comes: entries of one file
    // follow each other, and a lookup, a removal and an insertion per source hashed its path three times.
    var currentFile: String?
    var slots: [UInt8] = []
    // Skips and conflicts of one reason follow each other (skips come last, by reason): the bucket of a reason,
    // two set lookups, is looked up once per run of them.
    var last: (reasonCode: String, bucket: Bucket?)?
    // Entries and their sources are read in place: a copy of each source retained its file and label, and
    // `slots` lives here rather than in a closure's box, which checked each access.
    plan.entries.withUnsafeBufferPointer { entries in
      for index in entries.indices {
        let bucket: Bucket?
        let derived = Self.isDerived(entries[index].kind)
        if entries[index].action.needsAttention, let last, last.reasonCode == entries[index].reasonCode {
          bucket = last.bucket
        } else {
          bucket = RunVerdict.bucket(of: entries[index].action, reasonCode: entries[index].reasonCode)
          if entries[index].action.needsAttention { last = (entries[index].reasonCode, bucket) }
        }
        // An entry that follows from others' skips (a user none of whose tokens migrates gets no Account): those
        // entries count its items.
        guard let bucket else { continue }
        // An MSAL entity read from several files is one entry with a source for each: the first file's
        // counts as the entry does, the others' as merged into it (as an ADAL item that repeats another is).
        var unifiedSourceNoted = false
        entries[index].sources.withUnsafeBufferPointer { sources in
          for position in sources.indices {
            let item: Int
            if let index = sources[position].itemIndex, index >= 0 {
              item = index
            } else if sources[position].label.hasPrefix("ADAL ") {
              item = 0  // a whole-file input: one archived item
            } else {
              let key =
                "\(entries[index].kind?.rawValue ?? "-")\u{0}\(entries[index].canonicalKey ?? sources[position].label)"
              let repeated = unifiedSourceNoted && (bucket == .migrated || bucket == .unchanged)
              note(file: sources[position].file, unit: key, repeated ? .merged : bucket)
              unifiedSourceNoted = true
              continue
            }
            if currentFile != sources[position].file {
              if let currentFile { items[currentFile] = slots }
              currentFile = sources[position].file
              slots = items.removeValue(forKey: sources[position].file) ?? []
            }
            Self.note(item: item, Self.rank(bucket, derived: derived), in: &slots)
          }
        }
      }
    }
    if let currentFile { items[currentFile] = slots }
    for diagnostic in plan.diagnostics {
      guard let bucket = RunVerdict.bucket(of: diagnostic), let file = diagnostic.location?.file else { continue }
      if let index = diagnostic.location?.itemIndex, index >= 0 {
        note(file: file, item: index, bucket)
      } else {
        note(file: file, unit: "diagnostic\u{0}\(diagnostic.location?.keyPath ?? "")\u{0}\(diagnostic.message)", bucket)
      }
    }
  }

  /// Records the keychain items of `file` that belong to no token cache (`ADALReadResult.ignoredItemCount`).
  public mutating func addIgnored(_ count: Int, file: String) {
    if count > 0 { ignored[file, default: 0] += count }
  }

  /// The totals of every file that had any item, by path.
  public var files: [String: FileTotals] {
    var out: [String: FileTotals] = [:]
    for (file, slots) in items {
      // Counted by raw value first: a file's 40,000 slots counted into its totals hashed its path and a bucket
      // for each.
      var byRawValue = [Int](repeating: 0, count: Int(UInt8.max) + 1)
      for slot in slots { byRawValue[Int(Self.bucketValue(ofRank: slot))] += 1 }
      for bucket in Bucket.allCases where byRawValue[Int(bucket.rawValue)] > 0 {
        out[file, default: FileTotals()].counts[bucket] = byRawValue[Int(bucket.rawValue)]
      }
    }
    for (file, buckets) in units {
      for bucket in buckets.values { out[file, default: FileTotals()].counts[bucket, default: 0] += 1 }
    }
    for (file, count) in ignored { out[file, default: FileTotals()].ignored = count }
    return out
  }

  /// One line per file: `14 item(s): 10 migrated, ...`.
  public static func line(_ totals: FileTotals) -> String {
    "\(totals.total) item(s): \(totals[.migrated]) migrated, \(totals[.unchanged]) unchanged, "
      + "\(totals[.merged]) merged into another, \(totals[.policySkip] + totals.ignored) skipped by policy"
      + (totals.ignored > 0 ? " (\(totals.ignored) not token items)" : "")
      + ", \(totals[.problem]) not migrated (not readable or not modelled)"
  }

  private mutating func note(file: String, item: Int, _ bucket: Bucket) {
    var slots = items.removeValue(forKey: file) ?? []  // unique, so that the write below does not copy
    Self.note(item: item, Self.rank(bucket, derived: false), in: &slots)
    items[file] = slots
  }

  private static func note(item: Int, _ rank: UInt8, in slots: inout [UInt8]) {
    if slots.count <= item { slots += Array(repeating: 0, count: item + 1 - slots.count) }
    slots[item] = max(slots[item], rank)
  }

  /// An item's slot holds its best rank: a bucket's raw value from an Account, id token or app metadata entry
  /// (`derived`), or that plus `tokenRanks` from any other, so that every refresh or access token entry outranks
  /// them.
  private static func rank(_ bucket: Bucket, derived: Bool) -> UInt8 { bucket.rawValue + (derived ? 0 : tokenRanks) }
  private static func bucketValue(ofRank rank: UInt8) -> UInt8 { rank > tokenRanks ? rank - tokenRanks : rank }
  private static let tokenRanks: UInt8 = 8

  private mutating func note(file: String, unit: String, _ bucket: Bucket) {
    let old = units[file, default: [:]][unit]
    units[file, default: [:]][unit] = old.map { max($0, bucket) } ?? bucket
  }

  /// Entries that name every item of their user or app as a source (`rank`): the Account, the id token (one per
  /// user, client and tenant, from any of the user's items) and the app metadata.
  private static func isDerived(_ kind: UnifiedEntityKind?) -> Bool {
    kind == .account || kind == .idToken || kind == .appMetadata
  }
}
