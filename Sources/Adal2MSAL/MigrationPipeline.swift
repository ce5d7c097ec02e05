import ADALCache
import Adal2MSALSupport
import CacheStore
import Foundation
import MigrationEngine
import PropertyLists
import UnifiedCache

/// How a migration reads its inputs (in parallel) and plans them against a store: `MigrationRun` calls it, and
/// so do the benchmarks and tests. Pipelines call `MigrationRun` (or `Migration.plan` on inputs in memory).
package struct MigrationPipeline: Sendable {
  package var options: MigrationOptions
  package var limits: InputLimits
  /// How a refusal of an input given in the wrong place says where it belongs.
  package var fileNames: RunFileNames

  package init(
    options: MigrationOptions = MigrationOptions(), limits: InputLimits = .default, fileNames: RunFileNames = .init()
  ) {
    self.options = options
    self.limits = limits
    self.fileNames = fileNames
  }

  /// Everything read from the inputs of one run, in a deterministic order (the order of the expanded paths).
  package struct Inputs: Sendable {
    package var adal: [ADALInput]
    /// MSAL inputs: the `--msal` files, and the MSAL unified items found in ADAL keychain dumps.
    package var msal: [MSALInput]
    /// Every input file with its digest, for the run record.
    package var records: [PlanInput]
  }

  /// Reads the ADAL inputs (files, or directories of dumps) and the MSAL unified-cache JSON files. ADAL files
  /// are read on all cores; the result does not depend on the order they finish in. A file's bytes and parse tree are
  /// released once its items are decoded; the decoded items of every file are kept (about 3 KB per item, what a
  /// read repeats stored once), so memory grows with the total number of items (CHANGELOG.md, benchmark history, "Memory").
  ///
  /// - Parameter progress: called once per file read, from any thread.
  /// - Throws: the first unusable file's error (`InputFileError`, `ADALCacheError`, `UnifiedCacheError`),
  ///   which names the file and the place in it.
  package func read(
    adal: [String], msal: [String], progress: (@Sendable () -> Void)? = nil
  ) async throws -> Inputs {
    let adalPaths = try InputFile.expand(adal)
    let msalPaths = try InputFile.expand(msal)
    let (limits, names) = (self.limits, fileNames)
    let adalFiles = try await Self.mapConcurrently(adalPaths) { path in
      defer { progress?() }
      return try Self.readADAL(path, limits: limits, names: names)
    }
    var inputs = Inputs(adal: [], msal: [], records: [])
    for file in adalFiles {
      inputs.adal.append(file.input)
      if let unified = file.unified { inputs.msal.append(unified) }
      inputs.records.append(file.record)
    }
    for path in msalPaths {
      let (data, result) = try Self.readMSAL(path, limits: limits, names: names)
      inputs.msal.append(MSALInput(result, file: path))
      inputs.records.append(Self.record(path, role: .msal, data: data, format: "msal-json"))
      progress?()
    }
    return inputs
  }

  /// The smallest input whose pages `readADAL` gives back as its items are decoded, and whose digest it makes on
  /// another core meanwhile. A smaller one is read into the heap, hashed after its read and freed whole: each page
  /// given back is a system call that flushes every core's cached address translations, and each digest handed
  /// over wakes a thread, where a fleet's dumps hold a few KiB an item (docs/benchmarks.md, "Many small dumps").
  static let largeInputBytes = 4 << 20

  /// Plans the migration of `inputs` into a target that holds `existing` (empty for a new store).
  ///
  /// Pass `consume inputs` when they are not needed afterwards: the decoded items are then freed as soon as
  /// they are mapped, which takes them out of the run's peak memory (CHANGELOG.md, benchmark history, "Memory").
  package func plan(_ inputs: consuming Inputs, existing: UnifiedCacheContents = UnifiedCacheContents())
    -> MigrationPlan
  {
    let adal = inputs.adal
    inputs.adal = []  // so that the planner holds the only reference to the items
    return Migration.plan(
      adal: consume adal, msal: inputs.msal, existing: existing, inputs: inputs.records, options: options)
  }

  struct ADALFile: Sendable {
    var input: ADALInput
    var unified: MSALInput?
    var record: PlanInput
    /// Keychain items of the file that are neither ADAL nor MSAL items.
    var ignored = 0
  }

  /// Reads an ADAL input; one that is another file adal2msal reads is refused with where it belongs, in `names`'
  /// words.
  static func readADAL(_ path: String, limits: InputLimits, names: RunFileNames) throws -> ADALFile {
    let (data, pages) = try InputFile.readReleasable(path, limits: limits, pagesFrom: Self.largeInputBytes)
    // The digest needs nothing from the read: it runs on another core while the reader goes on. The pages the
    // reader lets go of meanwhile are given back once the digest has read them: had the reader waited for the
    // digest before its first release, a core would have stood idle for a third of the digest's time.
    pages?.deferReleases()
    let digest = pages.map { pages in
      BackgroundValue { SecretFingerprint.sha256Hex(data) { pages.resumeReleases(below: $0) } }
    }
    let result: ADALReadResult
    do {
      result = try ADALCacheReader(limits: limits).read(data, file: path, pages: pages)
    } catch {
      throw names.advising(error, of: data)
    }
    var unified: MSALInput?
    if !result.unifiedItems.isEmpty {
      unified = MSALInput(UnifiedKeychainDecoder().decode(result.unifiedItems), file: path)
    }
    let record = record(
      path, role: .adal, data: data, format: result.inputKind.rawValue,
      sha256: digest?.value ?? SecretFingerprint.sha256Hex(data))
    return ADALFile(
      input: ADALInput(result, file: path), unified: unified, record: record, ignored: result.ignoredItemCount)
  }

  /// Reads an MSAL input, as `migrate --msal` and `import` read their files, and names its unmodelled credentials.
  /// A file that is something else is named: an adal2msal store or an ADAL input, each with where it belongs in
  /// `names`' words, a known unsupported format ("not supported yet"), or a property list of another kind (what
  /// shows its tree).
  package static func readMSAL(_ path: String, limits: InputLimits, names: RunFileNames) throws -> (
    Data, UnifiedCacheReadResult
  ) {
    let data = try InputFile.read(path, limits: limits)
    if let refusal = InputFormatSniffer.refusal(data) {
      guard refusal == .unsupported(.adalDotNetV3) else {
        throw names.advising(ADALCacheError.refusing(refusal, file: path), of: data)
      }
      throw names.advising(
        ADALCacheError(
          "this is an ADAL input (adal-dotnet-v3), not an MSAL cache", at: SourceLocation(file: path),
          kind: .wrongOption(.adalInput)), of: data)
    }
    do {
      return (data, try UnifiedCacheJSONReader(limits: limits).read(data, file: path))
    } catch {
      let adal: ADALReadResult
      do {
        adal = try ADALCacheReader(limits: limits).read(data, file: path)
      } catch let other {
        if case .unsupported = other.kind { throw other }
        // A property list is no JSON: the JSON reader's "unexpected character" at its first byte says nothing of
        // what it is, the ADAL reader's refusal does (and that `Inspection` shows its tree).
        if PropertyListFormat.sniff(data) != nil { throw names.advising(other, of: data) }
        throw error
      }
      throw names.advising(
        ADALCacheError(
          "this is an ADAL input (\(adal.inputKind.rawValue)), not an MSAL cache", at: SourceLocation(file: path),
          kind: .wrongOption(.adalInput)), of: data)
    }
  }

  /// - Parameter sha256: `data`'s digest when it was computed already.
  static func record(
    _ path: String, role: PlanInput.Role, data: Data, format: String, sha256: String? = nil
  ) -> PlanInput {
    PlanInput(
      path: path, role: role, sha256: sha256 ?? SecretFingerprint.sha256Hex(data), byteCount: data.count,
      detectedFormat: format)
  }

  /// `transform` over `elements` on all cores (`readWidth` at once), results in the elements' order; the first
  /// error wins.
  private static func mapConcurrently<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @escaping @Sendable (Element) throws -> Result
  ) async throws -> [Result] {
    var results = [Result?](repeating: nil, count: elements.count)
    try await forEachConcurrently(elements, transform) { results[$0] = $1 }
    return results.compactMap { $0 }
  }

  /// `transform` over `elements` on all cores (`readWidth` at once), each result handed to `receive` with
  /// its element's position as it comes (in any order, one at a time); the first error wins.
  static func forEachConcurrently<Element: Sendable, Result: Sendable>(
    _ elements: [Element], _ transform: @escaping @Sendable (Element) throws -> Result,
    receive: (Int, Result) -> Void
  ) async throws {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
      var next = 0
      func launch() {
        guard next < elements.count else { return }
        let index = next
        let element = elements[index]
        next += 1
        group.addTask { (index, try transform(element)) }
      }
      for _ in 0..<min(readWidth, elements.count) { launch() }
      while let (index, result) = try await group.next() {
        receive(index, result)
        launch()
      }
    }
  }

  /// Files read at once: the cores, or `ADAL2MSAL_READ_CONCURRENCY` (for benchmarks).
  static var readWidth: Int {
    let configured = ProcessInfo.processInfo.environment["ADAL2MSAL_READ_CONCURRENCY"].flatMap { Int($0) }
    return max(1, configured ?? activeCores)
  }
}
