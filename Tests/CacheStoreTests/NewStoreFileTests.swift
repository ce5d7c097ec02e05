import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import CacheStore

/// A store that a run creates (`CacheStore.writing`) is built under a temporary name beside its path and renamed
/// onto it at the commit (`NewStoreFile`): nothing is at the path before, a failed run leaves nothing, and what a
/// killed run of the same path left is removed.
@Suite struct NewStoreFileTests {
  static func names(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  @Test func aNewStoreIsBuiltBesideItsPathAndRenamedOntoItAtTheCommit() throws {
    let path = try StoreTestSupport.freshPath()
    let directory = (path as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // What a killed run of this path left, and a file of another store's run that only looks alike.
    let stale = NewStoreFile.stem(of: path) + "killedrun"
    #expect(FileManager.default.createFile(atPath: stale, contents: Data("schema".utf8)))
    #expect(FileManager.default.createFile(atPath: stale + "-journal", contents: Data("pages".utf8)))
    let other = NewStoreFile.stem(of: (directory as NSString).appendingPathComponent("other.sqlite")) + "alive"
    #expect(FileManager.default.createFile(atPath: other, contents: Data()))
    let otherName = (other as NSString).lastPathComponent

    let lock = try StoreWriteLock(storePath: path) {}
    defer { lock.release() }
    let applied = try CacheStore.writing(path, options: CacheStoreOptions(), lock: lock) { store in
      #expect(store.path == path, "errors and the codec name the path, not the temporary file")
      #expect(!FileManager.default.fileExists(atPath: path), "nothing is at the path before the commit")
      // The temporary file and the side files SQLite keeps beside it.
      let building = Self.names(in: directory).filter { $0 != otherName }
      let files = building.filter { name in !StoreFileMarker.sideFileSuffixes.contains { name.hasSuffix($0) } }
      #expect(building.allSatisfy { $0.hasPrefix(".cache.sqlite.adal2msal-new-") }, "\(building)")
      #expect(files.count == 1, "\(building)")
      #expect(!building.contains((stale as NSString).lastPathComponent), "the killed run's file was kept")
      #expect(building.allSatisfy { StoreTestSupport.mode(directory + "/" + $0) == 0o600 }, "\(building)")
      return try StoreTestSupport.importFiles(StoreTestSupport.fixtureFiles(), into: store)
    }
    #expect(Self.names(in: directory) == [otherName, "cache.sqlite"])
    #expect(StoreTestSupport.mode(path) == 0o600)
    let store = try CacheStore.open(path: path, options: .reading())
    let counts = try StoreTestSupport.counts(store)
    #expect(counts.runs == 1 && counts.credentials > 0 && applied.rowsInserted >= counts.credentials)
    // In WAL mode: the header's read and write versions are 2.
    let header = try #require(FileManager.default.contents(atPath: path)?.prefix(20))
    #expect(Array(header.suffix(2)) == [2, 2])
  }

  @Test func aFailedRunLeavesNoFile() throws {
    let path = try StoreTestSupport.freshPath()
    let directory = (path as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: directory) }
    struct Failure: Error {}
    let lock = try StoreWriteLock(storePath: path) {}
    defer { lock.release() }
    #expect(throws: Failure.self) {
      try CacheStore.writing(path, options: CacheStoreOptions(), lock: lock) { store in
        _ = try StoreTestSupport.importFiles(StoreTestSupport.fixtureFiles(), into: store)
        throw Failure()
      }
    }
    #expect(Self.names(in: directory).isEmpty)
  }

  @Test func anEmptyFileIsReplacedWithItsSideFilesAtTheCommit() throws {
    let path = try StoreTestSupport.freshPath()
    let directory = (path as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o644]))
    #expect(FileManager.default.createFile(atPath: path + "-journal", contents: Data("not ours".utf8)))
    let lock = try StoreWriteLock(storePath: path) {}
    defer { lock.release() }
    try CacheStore.writing(path, options: CacheStoreOptions(), lock: lock) { store in
      #expect(StoreTestSupport.size(path) == 0, "the empty file is untouched until the commit")
      #expect(StoreTestSupport.mode(path) == 0o644)
      _ = try StoreTestSupport.importFiles(StoreTestSupport.fixtureFiles(), into: store)
    }
    #expect(Self.names(in: directory) == ["cache.sqlite"])
    #expect(StoreTestSupport.mode(path) == 0o600)
    #expect(try StoreTestSupport.counts(CacheStore.open(path: path, options: .reading())).runs == 1)
  }
}
