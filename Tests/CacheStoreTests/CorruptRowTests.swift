import Foundation
import GRDB
import Testing
import _Adal2MSALTestSupport

@testable import CacheStore

/// A store edited behind the tool's back (wrong types, bad JSON) gives a clear error, never a crash.
@Suite struct CorruptRowTests {
  @Test(arguments: [
    "UPDATE accounts SET username = X'00ff'",
    "UPDATE accounts SET additional_fields = '{not json'",
    "UPDATE accounts SET additional_fields = '[1]'",
    "UPDATE credentials SET expires_on = 'soon' WHERE credential_kind = 'AccessToken'",
    "UPDATE credentials SET credential_kind = 'Other'",
    "UPDATE credentials SET secret = X'01020304'",
    "UPDATE unknown_sections SET value = '{'",
  ])
  func tamperedRowsAreReportedNotCrashedOn(sql: String) throws {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    let contents = try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"))
    try store.apply(StoreTestSupport.plan(adding: contents), options: ApplyOptions(unknownSections: ["Extra": .null]))
    try store.queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
      try db.execute(sql: sql)
    }
    let error = #expect(throws: CacheStoreError.self) { try store.contents() }
    #expect(error?.reason == .corruptRow)
    #expect(error?.location.file == store.path)
  }
}
