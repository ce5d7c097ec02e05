import Adal2MSALSupport
import Foundation
import PropertyLists
import UnifiedCache

/// Sorts dumped keychain records into ADAL items, unified items, wipe markers and the rest.
struct KeychainItemRouter {
  let limits: InputLimits
  let file: String?

  /// - Parameter pages: the input's pages, of which every record's borrowed ranges (`appendBorrowedRanges`) are
  ///   held: let go as each batch of records is decoded and taken.
  func route(_ records: [KeychainRecord], into result: inout ADALReadResult, releasing pages: InputPages? = nil) {
    // One memo per core, each used by one decoding thread at a time: a memo shared by all of them had them
    // queue at its lock for a tenth of the read. Equal strings are shared within a memo (one copy per core).
    let memos = (0..<activeCores).map { _ in ReadMemo() }
    // Records are read through a pointer, field by field: through the array or a buffer pointer, each read of a
    // record (to ask whether it is an ADAL item, to decode it, or for its borrowed ranges) copied the whole record,
    // a retain and a release of every field.
    records.withUnsafeBufferPointer { buffer in
      nonisolated(unsafe) let records = buffer.baseAddress
      // Which records are ADAL items, asked once. Sized once: grown by doubling, the array kept up to twice the
      // slots it needed for the rest of the run. Asked on all cores: each ask is the first touch of the record's
      // `gena` bytes, 12 ms on one core at 40,000 records, where the other core waited.
      let isADALItem = Array(buffer.indices).orderedParallelMap(minimumChunk: 4_096) {
        KeychainRecord.isADALItem(at: records! + $0)
      }
      result.items.reserveCapacity(isADALItem.reduce(0) { $0 + ($1 ? 1 : 0) })
      // Decoding an item is most of a large dump's read and needs nothing from the others: decoded on all cores,
      // a chunk at a time, and taken in the records' order as the chunks are done (so that what is decoded and
      // not yet taken, held beside the result, stays small): the result is the same as one core's. Each decoded
      // item is moved into the result: items copied out of a decoded batch were a retain and a release of every
      // field. Only what a step reads is taken of a record (its borrowed data, a record that is not an ADAL item).
      typealias Outcome = Result<(item: ADALTokenItem, diagnostics: [Diagnostic]), ADALItemError>
      withUnsafeMutablePointer(to: &result) { output in
        pipelinedMap(count: buffer.count, chunkSize: Self.chunkSize, window: Self.window, lanes: memos) {
          memo, index -> Outcome? in
          guard isADALItem[index] else { return nil }
          return Result { () throws(ADALItemError) in
            try decodeADAL(records! + index, memo: memo, sharesStrings: false)
          }
        } takeInOrder: { chunk, decoded in
          for (offset, index) in chunk.enumerated() {
            if let outcome = decoded[offset].take() {
              take(outcome, into: &output.pointee)
            } else {
              takeOther(records![index], into: &output.pointee)
            }
          }
          if let pages {
            var ranges: [Range<Int>] = []
            for index in chunk {
              Self.appendBorrowedRanges(
                data: records![index].data, generic: records![index].generic, in: pages, to: &ranges)
            }
            pages.release(ranges)
          }
        }
      }
    }
    // The memos' tables go on another core (the items keep the strings they share).
    releaseInBackground(consume memos, worthIt: records.count >= parallelMapMinimumChunk)
    addNotes(to: &result)
  }

  /// What one worker of `route(flat:...)` keeps: the strings its records and items share.
  private struct FlatWorker: Sendable {
    let memo = ReadMemo()
    let strings = KeychainDumpParser.FlatLane()
  }

  /// An entry of a flat dump, made into its record and read on a worker.
  private enum FlatOutcome: Sendable {
    case item(Result<(item: ADALTokenItem, diagnostics: [Diagnostic]), ADALItemError>)
    case other(KeychainRecord)
  }

  /// The items of a binary dump read without its tree: each entry's record is made, and decoded, on the core that
  /// takes its chunk, and the input's pages that its objects lie on go once it and every other entry that reads
  /// them are taken. Made all before the first was decoded, the 10k-item dump's records were a 5 MB block held
  /// with the whole input at the read's peak.
  func route(
    flat entries: FlatDictionaryArray, parser: KeychainDumpParser, into result: inout ADALReadResult,
    releasing pages: InputPages?
  ) {
    if let pages {
      // Held a few thousand ranges at a time: the whole dump's at once were a 4 MB array at the read's peak.
      var ranges = [entries.arrayByteRange]
      for index in 0..<entries.count {
        entries.appendByteRanges(ofEntry: index, to: &ranges)
        if ranges.count >= 4_096 {
          pages.hold(ranges)
          ranges.removeAll(keepingCapacity: true)
        }
      }
      pages.hold(ranges)
      pages.releaseUnheld()
    }
    let problems = KeychainDumpParser.EntryDiagnostics()
    let lanes = (0..<activeCores).map { _ in FlatWorker() }
    result.items.reserveCapacity(entries.count)
    withUnsafeMutablePointer(to: &result) { output in
      // Optional only so that each outcome is moved out of its chunk (`take()`): iterated, the chunk gave copies
      // (a retain of each field of every item) and released the originals with it.
      pipelinedMap(count: entries.count, chunkSize: Self.chunkSize, window: Self.window, lanes: lanes) {
        lane, index -> FlatOutcome? in
        var record = parser.record(ofFlatEntry: index, in: entries, lane: lane.strings, problems: problems)
        return withUnsafePointer(to: &record) { pointer in
          guard KeychainRecord.isADALItem(at: pointer) else { return .other(pointer.pointee) }
          return .item(
            Result { () throws(ADALItemError) in try decodeADAL(pointer, memo: lane.memo, sharesStrings: true) })
        }
      } takeInOrder: { chunk, decoded in
        for offset in decoded.indices {
          switch decoded[offset].take() {
          case .item(let item): take(item, into: &output.pointee)
          case .other(let record): takeOther(record, into: &output.pointee)
          case nil: preconditionFailure("every entry has an outcome")
          }
        }
        if let pages {
          var ranges: [Range<Int>] = []
          for index in chunk { entries.appendByteRanges(ofEntry: index, to: &ranges) }
          pages.release(ranges)
        }
      }
    }
    pages?.release([entries.arrayByteRange])
    result.diagnostics = problems.inEntryOrder() + result.diagnostics
    releaseInBackground(consume lanes, worthIt: entries.count >= parallelMapMinimumChunk)
    addNotes(to: &result)
  }

  /// The notes on what a dump held besides ADAL items.
  private func addNotes(to result: inout ADALReadResult) {
    if !result.unifiedItems.isEmpty {
      result.diagnostics.append(
        Diagnostic(
          .note, code: "adal.unified-items",
          "\(result.unifiedItems.count) MSAL unified keychain item(s) (numeric type) handed to the unified decoder",
          at: SourceLocation(file: file)))
    }
    if let groups = Self.accessGroups(of: result.items) {
      result.diagnostics.append(
        Diagnostic(
          .note, code: "adal.access-groups",
          "ADAL items by keychain access group: \(groups); MSAL ObjC reads only the groups its app's entitlements "
            + "hold (export --for objc writes \(UnifiedKeychainWriter.defaultAccessGroup))",
          at: SourceLocation(file: file)))
    }
    if result.ignoredItemCount > 0 {
      result.diagnostics.append(
        Diagnostic(
          .note, code: "adal.ignored-items",
          "\(result.ignoredItemCount) keychain item(s) are neither ADAL nor MSAL items; ignored",
          at: SourceLocation(file: file)))
    }
  }

  /// Each access group of `items` with its count, most items first ("G (3), H (1)"); nil when no item has one.
  /// A migrated cache is useful only in a group the consuming app shares (migration lesson 19), and a dump of a
  /// device can hold several apps' groups.
  static func accessGroups(of items: [ADALTokenItem]) -> String? {
    var counts: [String: Int] = [:]
    items.withUnsafeBufferPointer { items in
      for index in items.indices {
        if let group = items[index].source.accessGroup, !group.isEmpty { counts[group, default: 0] += 1 }
      }
    }
    guard !counts.isEmpty else { return nil }
    return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) (\($0.value))" }
      .joined(separator: ", ")
  }

  /// Adds where a record's data values (`data`, `generic`) borrow the input's bytes (what its decoding reads of
  /// the input) to `ranges`: one array for all records, where an array each was two allocations per item.
  static func appendBorrowedRanges(data: Data?, generic: Data?, in pages: InputPages, to ranges: inout [Range<Int>]) {
    if let range = data.flatMap(pages.range(of:)) { ranges.append(range) }
    if let range = generic.flatMap(pages.range(of:)) { ranges.append(range) }
  }

  /// How many records a worker decodes at a time, and how many such chunks may be decoded ahead of the next one
  /// taken. The input's pages go back a chunk at a time, and until the first chunk is taken the whole input, its
  /// records and the chunks decoded meanwhile are held together (the read's peak). In batches of 1,024 records
  /// (about 4 MB of a synthetic dump) the 40k-item dry run peaked 7 MiB lower than in batches of 4,096; the
  /// window holds as many.
  static let chunkSize = 128
  static let window = 8

  /// Puts an ADAL item's decoded item, or why it could not be decoded, into the result.
  private func take(
    _ outcome: consuming Result<(item: ADALTokenItem, diagnostics: [Diagnostic]), ADALItemError>,
    into result: inout ADALReadResult
  ) {
    switch consume outcome {
    case .success(let (item, diagnostics)):
      result.items.append(consume item)
      result.diagnostics += consume diagnostics
    case .failure(let error):
      result.diagnostics.append(error.diagnostic)
    }
  }

  /// Sorts a record that is not an ADAL item into the result.
  private func takeOther(_ record: KeychainRecord, into result: inout ADALReadResult) {
    if record.isWipeMarker {
      let marker = wipeMarker(record)
      result.wipeMarkers.append(marker)
      let detail = [
        marker.bundleID.map { "bundleId \($0)" }, marker.wipeTime.map { "wiped \(ADALValue.iso8601($0))" },
      ]
      .compactMap { $0 }.joined(separator: ", ")
      result.diagnostics.append(
        Diagnostic(
          .note, code: "adal.wipe-marker",
          "ADAL wipe marker (Microsoft.ADAL.WipeAll.1) skipped" + (detail.isEmpty ? "" : " (\(detail))"),
          at: record.location))
    } else if let type = record.type {
      if let payload = record.data {
        // Copied: a dump's data values borrow the whole input (`ADALCacheReader`), which the result outlives.
        result.unifiedItems.append(
          UnifiedKeychainItem(
            account: record.account ?? "", service: record.service ?? "", generic: record.generic.map(Self.copy),
            type: type, payload: Self.copy(payload), accessGroup: record.accessGroup, location: record.location))
      } else {
        result.diagnostics.append(
          Diagnostic(
            .warning, code: "adal.unified-without-data",
            "a unified keychain item (type \(type)) has no v_Data; skipped",
            at: record.location))
      }
    } else if !record.isUnreadableEntry {
      result.ignoredItemCount += 1
    }
  }

  /// The ADAL item of the record at `record`, whose fields are read one by one in place (see `route`).
  /// `sharesStrings`: whether records with equal attribute strings share them already (a flat dump's,
  /// `route(flat:...)`); else the item shares them through the read's memo.
  private func decodeADAL(
    _ record: UnsafePointer<KeychainRecord>, memo: ReadMemo, sharesStrings: Bool
  ) throws(ADALItemError) -> (item: ADALTokenItem, diagnostics: [Diagnostic]) {
    // The attributes repeat across items (a user's account, the access group, a service per resource).
    let share = sharesStrings ? { $0 } : memo.shared as (String) -> String
    let source = ADALItemSource(
      file: record.pointee.location.file ?? file, itemIndex: record.pointee.location.itemIndex,
      service: record.pointee.service.map(share), account: record.pointee.account.map(share),
      accessGroup: record.pointee.accessGroup.map(share), created: record.pointee.created,
      modified: record.pointee.modified)
    guard let data = record.pointee.data, !data.isEmpty else {
      throw ADALItemError("the item has no v_Data", source: source)
    }
    let keychainUser = record.pointee.account.map(memo.account)
    let (item, itemDiagnostics) = try ArchiveLoader(limits: limits).decode(
      data, source: source, keychainUserID: keychainUser?.userID.map(memo.shared), memo: memo)
    var diagnostics = itemDiagnostics
    diagnostics += KeyConsistency.checkService(record.pointee.service, against: item, memo: memo)
    if let acctUser = keychainUser?.userID, let claimsUser = item.idTokenClaims?.normalizedUserID,
      ADALKeychainAccount.normalize(acctUser) != claimsUser
    {
      diagnostics.append(
        Diagnostic(
          .note, code: "adal.account-mismatch",
          "acct names user \(acctUser) but the id token's user is \(claimsUser)", at: item.source.location))
    }
    return (item, diagnostics)
  }

  /// Bytes in storage of their own.
  private static func copy(_ data: Data) -> Data { data.withUnsafeBytes { Data($0) } }

  private func wipeMarker(_ record: KeychainRecord) -> ADALWipeMarker {
    var marker = ADALWipeMarker(bundleID: nil, wipeTime: nil, location: record.location)
    let source = ADALItemSource(file: file, itemIndex: record.location.itemIndex)
    guard let data = record.data, let archive = try? ArchiveLoader(limits: limits).load(data, source: source),
      let entries = archive.root.stringKeyedEntries
    else { return marker }
    marker.bundleID = entries.first { $0.key == "bundleId" }?.value.stringValue
    marker.wipeTime = entries.first { $0.key == "wipeTime" }?.value.dateValue
    return marker
  }
}

/// Reads `v_Data` (or a whole file) as a keyed archive, without what no reader of items reads
/// (`ADALArchivedItemDecoder.unreadFields`); failures are item errors.
struct ArchiveLoader {
  let limits: InputLimits

  /// The ADAL classes and coder keys items spell, each then one string for every item
  /// (`BinaryKeyedArchiveReader.names`; only those over 15 bytes are looked for).
  static let names =
    (ADALArchivedItemDecoder.itemClassNames.union(ADALArchivedItemDecoder.userInformationClassNames).sorted()
    + ADALArchivedItemDecoder.e3Keys + ADALArchivedItemDecoder.e4Keys + ["userIdDisplayable"])
    .filter { $0.utf8.count > 15 }

  func load(_ data: Data, source: ADALItemSource) throws(ADALItemError) -> KeyedArchive {
    var scratch = ArchiveReadScratch()
    return try load(data, source: source, reusing: &scratch)
  }

  /// The ADAL item `data` archives (`ADALArchivedItemDecoder`), read in place where it can be
  /// (`BinaryKeyedArchiveReader.readInPlace`: most items), else built by `load(_:source:reusing:)` first. Either
  /// way the item and its warnings are the same.
  func decode(
    _ data: Data, source: consuming ADALItemSource, keychainUserID: String?, memo: ReadMemo
  ) throws(ADALItemError) -> (item: ADALTokenItem, diagnostics: [Diagnostic]) {
    let decoder = ADALArchivedItemDecoder(memo: memo)
    // Handed on, never copied (a copy was a retain of each of its strings): to the in-place read's body when it
    // is called, else to the general path.
    var unread = Optional(consume source)
    let inPlace = BinaryKeyedArchiveReader(limits: limits, names: Self.names).readInPlace(
      data, reusing: &memo.archiveScratch
    ) { root in
      Result { () throws(ADALItemError) in
        try decoder.decode(object: root, source: unread.take()!, keychainUserID: keychainUserID)
      }
    }
    // Taken apart, not `get()`: that copied the item out of the result (a retain of each of its fields).
    switch consume inPlace {
    case .success(let decoded): return decoded
    case .failure(let error): throw error
    case nil: break
    }
    guard let source = unread.take() else { preconditionFailure("the in-place read gave nil after its body ran") }
    let archive = try load(data, source: source, reusing: &memo.archiveScratch)
    return try decoder.decode(archive.root, source: source, keychainUserID: keychainUserID)
  }

  /// `load(_:source:)` with the binary reader's tables kept in `scratch` for the next item
  /// (`BinaryKeyedArchiveReader.read(_:pruning:reusing:)`).
  func load(
    _ data: Data, source: ADALItemSource, reusing scratch: inout ArchiveReadScratch
  ) throws(ADALItemError) -> KeyedArchive {
    // Most items are binary archives of the plain shape: read straight from their bytes. Anything else, and
    // every error, takes the general readers below.
    if let archive = BinaryKeyedArchiveReader(limits: limits, names: Self.names).read(
      data, pruning: ADALArchivedItemDecoder.unreadFields, reusing: &scratch)
    {
      return archive
    }
    let document: PropertyListDocument
    do {
      document = try PropertyListReader(limits: limits).read(data, file: source.file)
    } catch {
      throw ADALItemError("v_Data is not a readable property list (\(error.message))", source: source)
    }
    guard KeyedArchive.isKeyedArchive(document.value) else {
      throw ADALItemError("v_Data is a property list but not a keyed archive", source: source)
    }
    do {
      return try KeyedArchiveReader(limits: limits).read(document.value, file: source.file)
    } catch {
      throw ADALItemError("v_Data is not a readable keyed archive (\(error.message))", source: source)
    }
  }
}
