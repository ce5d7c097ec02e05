import ADALCache
import Adal2MSALSupport
import Foundation
import Testing
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The planner's groupings without tables give what a table gives: a user's items grouped by a key (one
/// group made without one), and an item without an oid attached to the single oid-user of its name.
@Suite struct PlanningGroupingTests {
  /// Items at indices 0..<count, in plan order (ordinal = index).
  private static func items(
    _ count: Int, claims: (Int) -> [String: Any]? = { _ in nil }, home: (Int) -> String? = { _ in nil },
    clientInfo: (Int) -> String? = { _ in nil }
  ) throws -> [SourcedItem] {
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    return try (0..<count).map { index in
      let item = try ItemFactory.item(
        index: index, claims: claims(index), home: home(index), clientInfo: clientInfo(index),
        refreshToken: "rt-\(index)")
      var sourced = try #require(SourcedItem(item, file: "items", clouds: &clouds, unknown: &unknown))
      sourced.ordinal = index
      return sourced
    }
  }

  /// `grouped(by:key:)` as a table gives it: keys sorted, each group's items in order and named by the first
  /// one's parts, items without parts left out. The parts are all one value, one value or none, or several
  /// values (the key drops the case of the parts, so that parts that differ can share a key).
  @Test(arguments: [1, 2, 3, 4])
  func groupedIsATableOfTheKeys(pattern: Int) throws {
    var generator = SeededGenerator(seed: UInt64(pattern))
    let items = try Self.items(40)
    let parts: [String?] = items.indices.map { _ in
      switch pattern {
      case 1: "realm"
      case 2: Bool.random(using: &generator) ? "realm" : nil
      case 3: ["a", "B", "b", nil][Int.random(in: 0..<4, using: &generator)]
      default: ["c", "a", "b"][Int.random(in: 0..<3, using: &generator)]
      }
    }
    let grouped = items.grouped {
      parts[$0.ordinal]
    } key: {
      $0.lowercased()
    }
    let table = Dictionary(grouping: items.filter { parts[$0.ordinal] != nil }) { parts[$0.ordinal]!.lowercased() }
    #expect(grouped.map { $0.parts.lowercased() } == table.keys.sorted())
    for (groupParts, members) in grouped {
      #expect(members.map(\.ordinal) == table[groupParts.lowercased()]?.map(\.ordinal))
      #expect(groupParts == members.first.flatMap { parts[$0.ordinal] })  // the first item's parts name it
    }
  }

  /// An item without an oid joins the oid-user of its name when there is one such user, and stays apart
  /// when two users of different oids share the name.
  @Test func anItemWithoutAnOidJoinsTheOneUserOfItsName() throws {
    func claims(oid: String?) -> [String: Any] {
      var claims: [String: Any] = ["tid": "tid", "upn": "user@contoso.com", "ver": "1.0"]
      if let oid { claims["oid"] = oid }
      return claims
    }
    let oneUser = try Self.items(3) { claims(oid: $0 == 2 ? nil : "oid-1") }
    #expect(UserClusters.of(oneUser) == [[0, 1, 2]])
    let twoUsers = try Self.items(4) { claims(oid: [0: "oid-1", 1: "oid-2", 2: "oid-1"][$0]) }
    #expect(UserClusters.of(twoUsers) == [[0, 2], [1], [3]])
  }

  /// An item's `client_info` ties it to others also when it has an archived home account id, and either id
  /// ties it regardless of case.
  @Test func bothHomeAccountIdsTieItems() throws {
    func clientInfo(_ uid: String, _ utid: String) -> String {
      Base64URL.encode(Data(#"{"uid":"\#(uid)","utid":"\#(utid)"}"#.utf8))
    }
    let homes = [0: "uid-1.tid", 2: "UID-1.tid", 3: "uid-3.tid"]
    let infos = [0: clientInfo("uid-2", "tid"), 1: clientInfo("uid-2", "tid"), 3: clientInfo("uid-3", "tid")]
    let items = try Self.items(4, home: { homes[$0] }, clientInfo: { infos[$0] })
    #expect(UserClusters.of(items) == [[0, 1, 2], [3]])
  }
}
