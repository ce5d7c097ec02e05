import Adal2MSALSupport
import Foundation
import MigrationEngine
import UnifiedCache

/// Prepares the rows of a plan's `add` and `update` entries ahead of the writer, on another core, a chunk of
/// entries at a time while the writer writes the chunks before (`CacheStore.PlanWriter`): each entity's
/// parameters (`RowCodec`'s binds, recorded by `RecordedRows`), its key's hash, and its provenance's sources with
/// their files and labels numbered. The writer then copies each row's bytes from one place into its statement,
/// and reads neither the entity nor its key unless the store holds a row of the key's hash.
///
/// One preparation per plan: it numbers the files and labels it meets from 0 (`ProvenanceWriter.learn`). Its
/// state is not checked for exclusive access at run time (`@exclusivity(unchecked)`): it prepares one chunk at a
/// time, on one thread (`ChunksAhead`'s maker), and the writer touches only its spare buffers, behind their lock.
final class RowPreparation: @unchecked Sendable {
  /// The prepared rows of a chunk of entries.
  struct Chunk: Sendable {
    let rows: RecordedRows
    /// For each entry of the chunk, in order (none for an entry that writes nothing).
    let slots: [Slot]
    /// The sources of every row of the chunk (`Slot.sources`).
    let sources: [PreparedSource]
    /// The files and labels first met in this chunk, in the order numbered.
    let newFiles: [String]
    let newLabels: [String]
    /// What binding an entry's row threw (sealing its secret), by its position in the chunk.
    let failures: [Int: CacheStoreError]
  }

  struct Slot {
    /// The entry's row in `Chunk.rows`; nil when it writes nothing.
    var row: Int?
    var kind: UnifiedEntityKind?
    var keyHash: Int64
    /// The entry's sources in `Chunk.sources`.
    var sources: Range<Int>

    static let none = Slot(row: nil, kind: nil, keyHash: 0, sources: 0..<0)
  }

  /// Entries a chunk holds: small enough that the writer starts soon, large enough that handing a chunk over
  /// is rare.
  static let chunkSize = 128
  /// Chunks prepared and not written yet, at most: what the preparation holds beside the plan. Chunks of 256
  /// entries, four ahead, wrote as fast and raised the 10k-item `migrate`'s peak by 3 MiB.
  static let window = 2

  private let codec: RowCodec
  /// The group names of the environments of the accounts prepared (`RowCodec.bind(_:key:to:environmentGroups:)`).
  @exclusivity(unchecked) private var environmentGroups = TextMemo<String>()
  /// The numbers of the files and labels met, from 0 in the order met.
  @exclusivity(unchecked) private var files = TextMemo<Int32>()
  @exclusivity(unchecked) private var labels = TextMemo<Int32>()

  /// Buffers of chunks written, for the next chunks: fresh ones were a page fault for every 4 KiB of the rows,
  /// each time. Guarded by `spareLock`: an `NSLock`, as elsewhere in the package, since ThreadSanitizer sees
  /// its pthread mutex but not the standard library's `Mutex` on Linux (docs/building.md, "ThreadSanitizer").
  private let spareLock = NSLock()
  private var spare: [RecordedRows] = []

  init(codec: RowCodec) { self.codec = codec }

  /// Takes back the buffers of a chunk whose rows are all written (bound, and so copied into the statements).
  func recycle(_ rows: RecordedRows) {
    spareLock.withLock { spare.append(rows) }
  }

  /// Prepares the rows of `entries[range]`.
  func prepare(_ entries: [PlanEntry], _ range: Range<Int>) -> Chunk {
    let rows = spareLock.withLock { spare.popLast() } ?? RecordedRows()
    rows.removeAll()
    var slots: [Slot] = []
    slots.reserveCapacity(range.count)
    var sources: [PreparedSource] = []
    var newFiles: [String] = []
    var newLabels: [String] = []
    var failures: [Int: CacheStoreError] = [:]
    // Entries read in place, through a pointer to each (see `CacheStore.PlanWriter.write(_:)`).
    entries.withUnsafeBufferPointer { entries in
      for position in range {
        let entry = entries.baseAddress! + position
        guard entry.pointee.action.writes, let box = entry.pointee.entityBox,
          let canonicalKey = entry.pointee.canonicalKey
        else {
          slots.append(.none)
          continue
        }
        let key = HashedKey(canonicalKey)
        let firstSource = sources.count
        if entry.pointee.sources.isEmpty {
          let item = PlanSource(file: "-", label: entry.pointee.reasonCode)
          sources.append(withUnsafePointer(to: item) { source($0, &newFiles, &newLabels) })
        } else {
          // Each source read in place: a copy of each retained and released its file and label.
          entry.pointee.sources.withUnsafeBufferPointer { items in
            for item in items.baseAddress!..<items.baseAddress! + items.count {
              sources.append(source(item, &newFiles, &newLabels))
            }
          }
        }
        var slot = Slot(row: nil, kind: nil, keyHash: key.hash, sources: firstSource..<sources.count)
        do throws(CacheStoreError) {
          slot.kind = try bind(box.value, key: key, to: rows)
          slot.row = rows.endRow()
        } catch {
          rows.dropRow()
          failures[position - range.lowerBound] = error
        }
        slots.append(slot)
      }
    }
    return Chunk(
      rows: rows, slots: slots, sources: sources, newFiles: newFiles, newLabels: newLabels, failures: failures)
  }

  /// `item` with its file and label numbered; a text met for the first time is appended to `newFiles` or
  /// `newLabels`.
  private func source(
    _ item: UnsafePointer<PlanSource>, _ newFiles: inout [String], _ newLabels: inout [String]
  ) -> PreparedSource {
    PreparedSource(
      file: Self.number(item.pointee.file, in: &files, new: &newFiles), itemIndex: item.pointee.itemIndex,
      label: Self.number(item.pointee.label, in: &labels, new: &newLabels))
  }

  private static func number(_ text: String, in numbers: inout TextMemo<Int32>, new: inout [String]) -> Int32 {
    if let known = numbers.value(of: text) { return known }
    let number = Int32(numbers.count)
    numbers.remember(number, for: text)
    new.append(text)
    return number
  }

  /// Records the row of `entity`; returns its kind.
  private func bind(
    _ entity: AnyUnifiedEntity, key: HashedKey, to row: RecordedRows
  ) throws(CacheStoreError) -> UnifiedEntityKind {
    switch entity {
    case .account(let account):
      try codec.bind(account, key: key, to: row, environmentGroups: &environmentGroups)
      return .account
    case .appMetadata(let metadata):
      try codec.bind(metadata, key: key, to: row)
      return .appMetadata
    case .accessToken(let token):
      try codec.bind(token, key: key, to: row)
      return .accessToken
    case .refreshToken(let token):
      try codec.bind(token, key: key, to: row)
      return .refreshToken
    case .idToken(let token):
      try codec.bind(token, key: key, to: row)
      return .idToken
    }
  }
}
