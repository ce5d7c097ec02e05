import Foundation
import GRDB
import MigrationEngine
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import CacheStore

@Suite struct LookupTests {
  static func account(_ username: String?, home: String, environment: String, realm: String) -> UnifiedAccount {
    UnifiedAccount(
      homeAccountID: home, environment: environment, realm: realm, username: username, authorityType: "MSSTS")
  }

  static func store(with accounts: [UnifiedAccount]) throws -> CacheStore {
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: UnifiedCacheContents(accounts: UnifiedSection(accounts))))
    return store
  }

  @Test func usernameIsTrimmedCaseInsensitiveAndAliasAware() throws {
    let store = try Self.store(with: [
      Self.account("Alice@Contoso.com", home: "a.t", environment: "login.windows.net", realm: "t"),
      Self.account("alice@contoso.com", home: "a.t", environment: "login.microsoftonline.us", realm: "t"),
      Self.account("bob@contoso.com", home: "b.t", environment: "login.windows.net", realm: "t"),
    ])
    #expect(try store.accountsForUsername("  ALICE@contoso.COM ").count == 2)
    let publicCloud = try store.accountsForUsername("alice@contoso.com", environment: "login.microsoftonline.com")
    #expect(publicCloud.map(\.environment) == ["login.windows.net"])
    #expect(try store.accountsForUsername("alice@contoso.com", environment: "login.chinacloudapi.cn").isEmpty)
    #expect(try store.accountsForUsername("carol@contoso.com").isEmpty)
    #expect(try store.accountsForUsername("   ").isEmpty)
  }

  @Test func identifierIsCaseInsensitiveAndPrefersTheHomeTenant() throws {
    let store = try Self.store(with: [
      Self.account("a@x.com", home: "UID.HomeTenant", environment: "login.windows.net", realm: "guest-tenant"),
      Self.account("a@x.com", home: "UID.HomeTenant", environment: "login.windows.net", realm: "hometenant"),
    ])
    #expect(try store.accountsForIdentifier("uid.hometenant").count == 2)
    #expect(try store.accountForIdentifier("uid.HOMETENANT")?.realm == "hometenant")
    #expect(try store.accountForIdentifier("other.t") == nil)
  }

  /// The account lookups go through hashes (`username_hash`, `home_account_hash`): a row of another username
  /// or home account id that has the same hash (here made by hand) is found by the index and left out.
  @Test func accountsWithTheSameHashAreToldApartByTheirText() throws {
    let store = try Self.store(with: [
      Self.account("alice@contoso.com", home: "a.t", environment: "login.windows.net", realm: "t"),
      Self.account("mallory@contoso.com", home: "m.t", environment: "login.windows.net", realm: "t"),
    ])
    try store.queue.write { db in
      try db.execute(
        sql: """
          UPDATE accounts SET username_hash = (SELECT username_hash FROM accounts WHERE username = 'alice@contoso.com'),
            home_account_hash = (SELECT home_account_hash FROM accounts WHERE home_account_id = 'a.t')
          WHERE username = 'mallory@contoso.com'
          """)
    }
    #expect(try store.accountsForUsername("Alice@Contoso.com").map(\.homeAccountID) == ["a.t"])
    #expect(
      try store.accountsForUsername("alice@contoso.com", environment: "login.windows.net").map(\.homeAccountID)
        == ["a.t"])
    #expect(try store.accountsForIdentifier("A.T").map(\.username) == ["alice@contoso.com"])
    #expect(try store.accountsForUsername("mallory@contoso.com").isEmpty)
    #expect(try store.accountsForIdentifier("m.t").isEmpty)
  }

  /// Hosts that are canonically equivalent but spelled apart ("é" as one scalar, and as `e` and a combining
  /// accent) are two environments, as SQLite tells them apart: each account's `environment_group` is its own
  /// host's, however the accounts before it were spelled.
  @Test func environmentGroupKeepsEachHostsSpelling() throws {
    let hosts = ["Caf\u{E9}.example", "cafe\u{301}.example", "login.windows.net", "caf\u{E9}.example"]
    let store = try Self.store(
      with: hosts.enumerated().map { index, host in
        Self.account("u\(index)@x.com", home: "h\(index).t", environment: host, realm: "t")
      })
    let groups = try store.queue.read { db in
      try Row.fetchAll(db, sql: "SELECT home_account_id, environment_group FROM accounts").map { row in
        (row["home_account_id"] as String, Array((row["environment_group"] as String).unicodeScalars))
      }
    }
    let expected = ["caf\u{E9}.example", "cafe\u{301}.example", "public", "caf\u{E9}.example"]
    #expect(
      Dictionary(uniqueKeysWithValues: groups)
        == Dictionary(uniqueKeysWithValues: expected.enumerated().map { ("h\($0).t", Array($1.unicodeScalars)) }))
  }

  @Test func credentialsOfAnAccount() throws {
    let contents = try StoreTestSupport.read(Fixtures.url("msal-json/msal-dotnet_token_cache_one_acc_seed.json"))
    let store = try CacheStore.open(path: try StoreTestSupport.freshPath())
    try store.apply(StoreTestSupport.plan(adding: contents))
    let home = try #require(contents.accounts.entities.first?.homeAccountID)
    let credentials = try store.credentials(ofHomeAccountID: home.uppercased())
    let expected = contents.allEntities.filter { $0.kind.holdsSecret && $0.homeAccountID == home }
    #expect(Set(credentials) == Set(expected))
    #expect(!credentials.isEmpty)
  }

  /// The lookups are single index searches, not table scans (docs/sqlite-schema.md shows the same output).
  @Test(arguments: [
    ("SELECT * FROM accounts WHERE username_hash = ? AND environment_group = ?", "accounts_by_username"),
    ("SELECT * FROM accounts WHERE username_hash = ?", "accounts_by_username"),
    ("SELECT * FROM accounts WHERE home_account_hash = ?", "accounts_by_home_account_hash"),
    ("SELECT * FROM credentials WHERE home_account_hash = ?", "credentials_by_home_account_hash"),
    (StoreTable.credentials.selectSQL, "credentials_by_key_hash"),
    (StoreTable.accounts.selectSQL, "accounts_by_key_hash"),
    (StoreTable.appMetadata.selectSQL, "app_metadata_by_key_hash"),
    ("SELECT 1 FROM credentials WHERE key_hash = ?", "credentials_by_key_hash"),
    ("SELECT * FROM provenance WHERE row_table = ? AND row_id = ?", "PRIMARY KEY"),
  ])
  func lookupsUseTheirIndex(sql: String, index: String) throws {
    let store = try Self.store(with: [
      Self.account("a@x.com", home: "a.t", environment: "login.windows.net", realm: "t")
    ])
    let details = try store.queue.read { db in
      try Row.fetchAll(
        db, sql: "EXPLAIN QUERY PLAN " + sql,
        arguments: StatementArguments(["x", "y", "z"].prefix(sql.components(separatedBy: "?").count - 1))
      )
      .map { $0["detail"] as String }
    }
    #expect(
      details.contains {
        $0.contains("SEARCH") && $0.contains(index == "PRIMARY KEY" ? "USING PRIMARY KEY" : "INDEX \(index) ")
      },
      "\(details)")
    #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
  }
}
