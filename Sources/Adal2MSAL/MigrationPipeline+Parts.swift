import ADALCache
import Adal2MSALSupport
import Dispatch
import Foundation
import MigrationEngine
import UnifiedCache

extension MigrationPipeline {
  /// What the first pass over a run's inputs keeps: every input's digest, what ties inputs together
  /// (`InputPartitions`), the MSAL files, and the decoded ADAL files when they are few enough to keep.
  package struct InputIndex: Sendable {
    /// Every input with its digest, for the plan and the run record.
    package var records: [PlanInput]
    /// The ADAL items of all the inputs.
    package var itemCount: Int
    /// Whether the run is one part, its items kept from the first pass (nothing is read twice).
    package fileprivate(set) var isOnePart = false

    /// Groups the inputs into parts of at most `maxItems` items (`InputPartitions.parts`) and lets the
    /// identity keys go: at a million items they are about a hundred megabytes that the parts no longer need.
    /// `planInParts` partitions by itself when this was not called (and keeps the keys).
    package mutating func partition(existing: UnifiedCacheContents, maxItems: Int) {
      parts = parts(existing: existing, maxItems: maxItems)
      partitions = InputPartitions()
    }

    /// One part when the first pass kept the items (planned whole, nothing read again), else the partition's.
    fileprivate func parts(existing: UnifiedCacheContents, maxItems: Int) -> [[Int]] {
      isOnePart ? [Array(0..<partitions.count)] : partitions.parts(existing: existing, maxItems: maxItems)
    }
    /// Files of an `--adal` or `--msal` directory that could not be used (unreadable, unrecognised, unsupported),
    /// in path order, the ADAL files first: a fleet goes on without them, and the run names and counts them.
    package var skippedFiles: [SkippedInput] = []
    /// What the run says of its inputs (`InputFile.expandMarkingDirectories`): the hidden entries and the run's
    /// own files it did not read, a directory with no file to read, and a file given again.
    package var inputDiagnostics: [Diagnostic] = []
    /// Keychain items that are neither ADAL nor MSAL items, by ADAL file (for `InputAccounting.addIgnored`).
    package var ignoredItems: [String: Int] = [:]
    /// Unknown top-level sections of the MSAL inputs (later files win by name), carried into the store.
    package var unknownSections: JSONObject
    fileprivate(set) var adalPaths: [String]
    fileprivate var adalDigests: [String]
    fileprivate var partitions = InputPartitions()
    /// The parts, once `partition` made them (the keys are let go then).
    fileprivate var parts: [[Int]]?
    /// The `--msal` files, read whole.
    fileprivate var msal: [MSALInput]
    /// The node of each account of the `--msal` files: (file, lowercased home account id).
    fileprivate var msalAccounts: [(file: Int, home: String)] = []
    /// The entities of the dumps' MSAL items that no part plans (`PlanningSession.isPlannedWithAccount`).
    fileprivate var sharedUnified: [MSALInput] = []
    /// The decoded ADAL files the first pass kept, by position in `adalPaths` (nil: read again with its part).
    /// All of them for a run of one part; for a run in parts, those that fit the first pass's budget, each
    /// taken by `planInParts` when its part is planned.
    fileprivate var kept: [ADALFile?] = []

    /// The ADAL files the parts read again: those the first pass did not keep.
    package var pathsToReadAgain: [String] {
      adalPaths.indices.filter { kept[$0] == nil }.map { adalPaths[$0] }
    }
  }

  /// The first pass: reads every input (ADAL files on all cores), records its digest and the identity keys of
  /// its items, and keeps the decoded items of every file if there are at most `maxItems` of them in all, or
  /// they are one file's: then the run is planned whole, as one part, and nothing is read twice.
  ///
  /// A larger run is planned in parts of about `itemsPerPart` items, and keeps the decoded items of the files
  /// that fit in `maxItems - itemsPerPart` items (the files read first, mostly the first parts'): the parts
  /// read only the other files again. The items held while a part is planned, the kept ones and the part's,
  /// are then about `maxItems`, as many as this pass held before it knew the run was in parts.
  ///
  /// A file of an `--adal` or `--msal` directory that cannot be used (unreadable, unrecognised, unsupported) is
  /// not an error: it is listed in `skippedFiles`, with why, and the run goes on without it (a fleet). The run's
  /// own files found in a directory (`runFiles`: the store and its side files) are passed over and named.
  ///
  /// - Throws: the first unusable file named directly (not through a directory), as `read` does.
  package func index(
    adal: [String], msal: [String], passingOver runFiles: [String] = [], keepingAtMost maxItems: Int,
    itemsPerPart: Int, progress: (@Sendable (String) -> Void)? = nil
  ) async throws -> InputIndex {
    let (adalEntries, adalDiagnostics) = try InputFile.expandMarkingDirectories(adal, passingOver: runFiles)
    let adalPaths = adalEntries.map(\.path)
    let (msalEntries, msalDiagnostics) = try InputFile.expandMarkingDirectories(msal, passingOver: runFiles)
    let (limits, names) = (self.limits, fileNames)
    // A file a directory holds that the other option names too is read there: its reader here refuses it as the
    // other kind, and it is passed over, not skipped (`refused`).
    let adalFiles = Set(adalEntries.compactMap { FileIdentity($0.path) })
    let msalFiles = Set(msalEntries.compactMap { FileIdentity($0.path) })
    var index = InputIndex(
      records: [], itemCount: 0, unknownSections: JSONObject(), adalPaths: adalPaths, adalDigests: [], msal: [])
    index.inputDiagnostics = adalDiagnostics + msalDiagnostics
    var failures: [SkippedInput?] = Array(repeating: nil, count: adalPaths.count)
    // Every file read, whole or `stripped`; `whole` marks those whose items are kept.
    var files: [ADALFile?] = Array(repeating: nil, count: adalPaths.count)
    var whole: [Bool] = Array(repeating: false, count: adalPaths.count)
    var keys: [[String]] = Array(repeating: [], count: adalPaths.count)
    var counts: [Int] = Array(repeating: 0, count: adalPaths.count)
    var keeping = true
    var total = 0
    var keptItems = 0
    let partBudget = max(0, maxItems - itemsPerPart)
    // A part holds whole files, so a lone file is planned whole at any size: in parts it would be one part,
    // read twice, and its peak memory no lower. Its identity keys, which only tie inputs together, would go
    // unused (on one 40k-item dump they were a sixth of the planning CPU).
    let splittable = adalEntries.count > 1
    try await Self.forEachConcurrently(
      adalEntries,
      { entry in
        defer { progress?(entry.path) }
        do {
          let file = try Self.readADAL(entry.path, limits: limits, names: names)
          let keys = splittable ? InputPartitions.keys(of: file.input, unified: file.unified) : []
          return Result<(ADALFile, [String]), SkippedInput>.success((file, keys))
        } catch {
          // A file named on the command line ends the run; a file of a directory is skipped and named.
          guard entry.inDirectory else { throw error }
          return .failure(SkippedInput(path: entry.path, error: error))
        }
      }
    ) { position, outcome in
      let result: (ADALFile, [String])
      switch outcome {
      case .success(let read): result = read
      case .failure(let skipped):
        failures[position] = skipped
        return
      }
      let (file, fileKeys) = result
      let count = file.input.items.count
      keys[position] = fileKeys
      counts[position] = count
      total += count
      files[position] = file
      whole[position] = true
      keptItems += count
      guard total > maxItems, splittable else { return }
      if keeping {
        // The run is in parts: the files read last go first, until the rest fit the budget.
        keeping = false
        for other in files.indices.reversed() where whole[other] && keptItems > partBudget {
          keptItems -= counts[other]
          whole[other] = false
          files[other] = files[other].map(Self.stripped)
        }
      } else if keptItems > partBudget {
        keptItems -= count
        whole[position] = false
        files[position] = Self.stripped(file)
      }
    }
    for position in adalPaths.indices {
      guard let file = files[position] else { continue }
      index.partitions.add(keys: keys[position], items: counts[position])
      index.records.append(file.record)
      if file.ignored > 0 { index.ignoredItems[file.record.path] = file.ignored }
      index.adalDigests.append(file.record.sha256)
      if let unified = file.unified {
        index.unknownSections.mergeUnknownSections(unified.contents.unknownSections)
        // Planned once, after the parts, in the files' order (a stripped file holds only these already).
        index.sharedUnified.append(whole[position] ? unified.sharedEntities(keepingDiagnostics: false) : unified)
      }
    }
    for skipped in failures.compactMap({ $0 }) {
      Self.refused(skipped, readAs: .msalInput, by: msalFiles, into: &index)
    }
    index.adalPaths = adalPaths.indices.filter { failures[$0] == nil }.map { adalPaths[$0] }
    index.itemCount = total
    index.kept = adalPaths.indices.filter { failures[$0] == nil }.map { whole[$0] ? files[$0] : nil }
    index.isOnePart = keeping
    if !keeping { returnFreedMemory() }
    for entry in msalEntries {
      let path = entry.path
      let (data, result): (Data, UnifiedCacheReadResult)
      do {
        (data, result) = try Self.readMSAL(path, limits: limits, names: names)
      } catch {
        // As an `--adal` directory's: a file named on the command line ends the run, one of a directory is
        // skipped and named.
        guard entry.inDirectory else { throw error }
        Self.refused(SkippedInput(path: path, error: error), readAs: .adalInput, by: adalFiles, into: &index)
        progress?(path)
        continue
      }
      let input = MSALInput(result, file: path)
      index.unknownSections.mergeUnknownSections(input.contents.unknownSections)
      for account in input.accountKeys {
        index.partitions.add(keys: account.keys, items: 0)
        index.msalAccounts.append((index.msal.count, account.home))
      }
      index.msal.append(input)
      index.records.append(Self.record(path, role: .msal, data: data, format: "msal-json"))
      progress?(path)
    }
    return index
  }

  /// The code of the note that names a file of an input directory read as the other kind of input, which the
  /// run was also given (`--adal DIR --msal DIR/cache.json`).
  package static let otherRoleCode = "input.read-as-other-kind"

  /// A file of an input directory that its reader refused: passed over with a note when the reader said it is
  /// the other kind of input (`role`) and the other option reads it (`otherFiles`), or when it is one of Azure CLI's
  /// own files (`SkippedInput.azureCLIFileNote`); else skipped and counted.
  private static func refused(
    _ skipped: SkippedInput, readAs role: ADALCacheError.InputRole, by otherFiles: Set<FileIdentity>,
    into index: inout InputIndex
  ) {
    guard skipped.belongsAs == role, let file = FileIdentity(skipped.path), otherFiles.contains(file) else {
      if let note = skipped.azureCLIFileNote { return index.inputDiagnostics.append(note) }
      return index.skippedFiles.append(skipped)
    }
    let (here, there) = role == .msalInput ? ("ADAL", "an MSAL input") : ("MSAL", "an ADAL input")
    index.inputDiagnostics.append(
      Diagnostic(
        .note, code: otherRoleCode,
        "not read as an \(here) file of the directory: it is \(there) of this run, read as such",
        at: SourceLocation(file: skipped.path)))
  }

  /// The second pass: plans the run a part at a time (the parts of `index.partition`, or of `existing` and
  /// `maxItems`), reading each part's files again (on all cores), and hands each part's plan to `body` (to
  /// apply it and add it to the report) before the next part is read. Returns `session.finish`'s plan: app
  /// metadata, the entities no part planned, and every input.
  ///
  /// A run the index kept is one part, planned from the kept items, which are taken out of `index` so that
  /// they are freed as they are mapped; planned again, its files are read again.
  ///
  /// `progress` is called with each file read again, `planningPart` with each part's number of ADAL items
  /// before it is planned.
  ///
  /// - Throws: a file that cannot be read again, or whose bytes changed since the first pass
  ///   (`InputFileError`); whatever `body` throws.
  package func planInParts(
    _ index: inout InputIndex, session: inout PlanningSession, existing: UnifiedCacheContents, maxItems: Int,
    progress: (@Sendable (String) -> Void)? = nil, planningPart: ((_ items: Int) -> Void)? = nil,
    _ body: (consuming MigrationPlan) throws -> Void
  ) throws -> MigrationPlan {
    let adalCount = index.adalPaths.count
    var shared = index.sharedUnified
    for (number, part) in (index.parts ?? index.parts(existing: existing, maxItems: maxItems)).enumerated() {
      // The previous part's items and plan are gone: this part reuses no fragments of them. After the last part
      // there is nothing to make room for: giving its pages back took a one-part run about 900 system calls.
      if number > 0 { returnFreedMemory() }
      let files = part.filter { $0 < adalCount }
      var reread = try readAgain(files.filter { index.kept[$0] == nil }, of: index, progress: progress)
        .makeIterator()
      // The kept files are taken out of the index, so that their items go as they are mapped; the others come
      // read again, in the same order.
      var read = files.map { index.kept[$0].take() ?? reread.next()! }
      var msal = read.compactMap(\.unified)
      var homes: [Int: Set<String>] = [:]
      for node in part where node >= adalCount {
        let account = index.msalAccounts[node - adalCount]
        homes[account.file, default: []].insert(account.home)
      }
      for (file, accountHomes) in homes.sorted(by: { $0.key < $1.key }) {
        msal.append(index.msal[file].entities(ofAccounts: accountHomes))
      }
      let adal = read.map(\.input)
      planningPart?(adal.reduce(0) { $0 + $1.items.count })
      read = []  // the planner holds the only references to the items: they go as they are mapped
      try body(session.plan(adal: consume adal, msal: msal))
    }
    shared += index.msal.map { $0.sharedEntities(keepingDiagnostics: true) }
    return session.finish(msal: shared, inputs: index.records)
  }

  /// What the index keeps of a file it reads again with its part: the record, and its dump's MSAL entities
  /// that no part plans.
  private static func stripped(_ file: ADALFile) -> ADALFile {
    ADALFile(
      input: ADALInput(file: file.input.file, items: []),
      unified: file.unified?.sharedEntities(keepingDiagnostics: false),
      record: file.record, ignored: file.ignored)
  }

  /// Reads the ADAL files `positions` of the index again, on all cores, checking that their bytes did not
  /// change since the first pass.
  private func readAgain(_ positions: [Int], of index: InputIndex, progress: (@Sendable (String) -> Void)?) throws
    -> [ADALFile]
  {
    let (limits, names) = (self.limits, fileNames)
    let results = ResultSlots<ADALFile>(count: positions.count)
    DispatchQueue.concurrentPerform(iterations: min(Self.readWidth, max(1, positions.count))) { worker in
      for slot in stride(from: worker, to: positions.count, by: Self.readWidth) {
        let path = index.adalPaths[positions[slot]]
        defer { progress?(path) }
        results.set(
          slot,
          Result {
            let file = try Self.readADAL(path, limits: limits, names: names)
            guard file.record.sha256 == index.adalDigests[positions[slot]] else {
              throw InputFileError(
                path: path, problem: .unreadable(reason: "the file changed while it was being migrated; run again"))
            }
            return file
          })
      }
    }
    return try results.values()
  }
}

/// A file of an `--adal` or `--msal` directory (or of a directory given to `import`) that was skipped whole, and
/// why (the reader's message: the place and what is wrong, never its content).
public struct SkippedInput: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
  public var path: String
  public var reason: String
  /// Where the reader said the file belongs, when it refused it as the other kind of input.
  package var belongsAs: ADALCacheError.InputRole?

  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  init(path: String, error: any Error) {
    let message = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    // The readers' messages start with the file (then its place: "FILE, offset 3, line 1:4: …"); the run names
    // it once.
    let prefix = [path + ": ", path + ", "].first { message.hasPrefix($0) }
    self.init(path: path, reason: prefix.map { String(message.dropFirst($0.count)) } ?? message)
    belongsAs = (error as? ADALCacheError)?.belongsAs
  }

  /// `PATH: skipped: REASON`.
  public var description: String { "\(path): skipped: \(reason)" }
  public var errorDescription: String? { description }

  /// The code of the diagnostic that names a skipped file.
  public static let code = "input.file-skipped"

  /// The warning that names the file and why it was skipped, in a report's or an import's diagnostics.
  public var diagnostic: Diagnostic {
    Diagnostic(.warning, code: Self.code, "file skipped: \(reason)", at: SourceLocation(file: path))
  }

  /// The code of the note that passes over a file of Azure CLI's configuration directory.
  public static let azureCLIFileCode = "input.azure-cli-file"

  /// The note that passes over this file, not a skip, when it is in Azure CLI's configuration directory
  /// (`~/.azure`: a directory that holds `azureProfile.json`, or a folder in one) and is not one of its token
  /// caches: its settings, subscriptions, command index, extensions and logs hold no token, so `--adal ~/.azure`
  /// loses nothing by not reading them. Nil for any other file, for a file its reader said is the other kind of
  /// input, and for Azure CLI's token caches (`accessTokens…`, `msal_token_cache…`, whatever their suffix), which
  /// stay skipped: a token cache that cannot be read is lost to the run.
  package var azureCLIFileNote: Diagnostic? {
    let name = (path as NSString).lastPathComponent
    guard belongsAs == nil, !["accessTokens", "msal_token_cache"].contains(where: { name.hasPrefix($0) }) else {
      return nil
    }
    // The walk is over the absolute path: Foundation's `deletingLastPathComponent` traps on a path of `.`,
    // which a relative input (`--adal .`, `./dir`) reaches.
    var directory = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
    while true {
      if FileManager.default.fileExists(atPath: directory.appendingPathComponent("azureProfile.json").path) {
        return Diagnostic(
          .note, code: Self.azureCLIFileCode,
          "not read: a file of Azure CLI's configuration directory \(directory.path) (its settings, subscriptions, "
            + "command index, extensions or logs), no token cache",
          at: SourceLocation(file: path))
      }
      let parent = directory.deletingLastPathComponent().standardizedFileURL
      if parent.path == directory.path { return nil }
      directory = parent
    }
  }
}

/// Results written by concurrent workers, one slot each (a lock, not actors: the second pass runs inside a
/// store transaction, which is synchronous).
private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
  private var slots: [Result<Value, any Error>?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ slot: Int, _ result: Result<Value, any Error>) {
    lock.withLock { slots[slot] = result }
  }

  /// The values in slot order; the first slot's error if any failed.
  func values() throws -> [Value] {
    try lock.withLock { slots }.map { try $0!.get() }
  }
}
