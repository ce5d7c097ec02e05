import ADALCache
import Foundation
import Testing
import UnifiedCache
import _Adal2MSALTestSupport

@testable import MigrationEngine

/// The planner's shortcuts give what the plain way gives: offering proposals in slot order without a table,
/// comparing entries field by field, listing an app's sources without a set, listing clusters by their root
/// and merging apps under the keys made for them.
@Suite struct PlanningShortcutTests {
  /// Refresh tokens of a few keys, some repeated with another secret (a conflict, or a merge when the inputs
  /// win), from sources in shuffled order.
  private static func proposals(seed: UInt64) -> [Proposal] {
    var generator = SeededGenerator(seed: seed)
    return (0..<300).map { index in
      let client = "client-\(Int.random(in: 0..<12, using: &generator))"
      let secret = "rt-\(Int.random(in: 0..<3, using: &generator))"
      let token = UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com", clientID: client,
        secret: UnifiedSecret(secret), familyID: Bool.random(using: &generator) ? "1" : nil)
      let source = PlanSource(file: "dump.plist", itemIndex: Int.random(in: 0..<50, using: &generator), label: "ADAL")
      return Proposal(
        entity: .refreshToken(token), sources: [source], rule: .derivedFromIDToken, username: "user@contoso.com",
        homeAccountID: "uid.utid", reasonCode: "adal.refresh-token", reason: "proposal \(index)")
    }
  }

  /// Each item's authority and cloud remembered per text (`ItemAuthorities`) are what parsing its text and
  /// looking its environment up give: for texts repeated one after another and apart, text that is no
  /// authority (the empty text too, which it starts from), and hosts in no known alias group (each noted).
  @Test func authoritiesRememberedPerTextAreTheParsedOnes() {
    let texts = [
      "", "https://login.microsoftonline.com/common", "https://login.microsoftonline.com/common",
      "https://login.chinacloudapi.cn/tenant", "https://login.microsoftonline.com/common", "not an authority",
      "https://login.microsoftonline.com/common", "https://sts.contoso.com/adfs",
      "https://login.chinacloudapi.cn/tenant", "https://sts.contoso.com:8443/adfs", "not an authority",
      "https://sts.contoso.com/adfs",
    ]
    var remembered = ItemAuthorities()
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    for text in texts {
      let (authority, cloud) = remembered.resolve(text)
      let parsed = ADALAuthority(text)
      let parsedCloud = parsed.map { SourcedItem.cloud(of: $0.environment, clouds: &clouds, unknown: &unknown) }
      #expect(authority == parsed, "\(text)")
      #expect(cloud == (parsedCloud ?? ""), "\(text)")
    }
    #expect(remembered.unknownEnvironments == unknown)
    #expect(unknown == ["sts.contoso.com", "sts.contoso.com:8443"])
  }

  /// A target holding the refresh tokens of half the clients the proposals name: each with one of their
  /// secrets and family ids, some with the client id in another case.
  private static func target(seed: UInt64) -> UnifiedCacheContents {
    var generator = SeededGenerator(seed: seed)
    var contents = UnifiedCacheContents()
    for client in 0..<6 {
      let token = UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com",
        clientID: client % 3 == 0 ? "Client-\(client)" : "client-\(client)",
        secret: UnifiedSecret("rt-\(Int.random(in: 0..<3, using: &generator))"),
        familyID: Bool.random(using: &generator) ? "1" : nil)
      contents.upsert(.refreshToken(token))
    }
    return contents
  }

  /// Offered in one run and cut into several, each run offered on a core of its own.
  @Test(arguments: [MigrationOptions.Preference.existing, .adal], [(false, 1), (true, 1), (false, 3), (true, 4)])
  func offeringInSlotOrderIsOfferingOneAtATime(_ prefer: MigrationOptions.Preference, cases: (Bool, Int)) {
    let (storeHoldsKeys, runs) = cases
    let proposals = Self.proposals(seed: 11)
    let store = storeHoldsKeys ? Self.target(seed: 5) : UnifiedCacheContents()
    let order = proposals.indices.sorted { (proposals[$0].canonicalKey, $0) < (proposals[$1].canonicalKey, $1) }
    #expect((Reconciler.slotRuns(of: order, in: proposals, count: runs).count > 1) == (runs > 1))
    var shortcut = Reconciler(store: store, prefer: prefer)
    shortcut.offer(proposals, inSlotOrder: order, runs: runs)
    var plain = Reconciler(store: store, prefer: prefer)
    for index in order { plain.offer(proposals[index], fromADAL: true) }
    #expect(shortcut.entries.count < proposals.count)  // repeated keys met each other
    #expect(shortcut.entries == plain.entries)
    // What the store holds was compared: every action a target gives, each at least once.
    let actions = Set(shortcut.entries.map(\.action))
    let expected: Set<PlanAction> =
      switch (storeHoldsKeys, prefer) {
      case (false, .existing): [.add, .conflict]
      case (false, .adal): [.add]
      case (true, .existing): [.add, .unchanged, .conflict]
      case (true, .adal): [.add, .update]
      }
    #expect(expected.isSubset(of: actions), "\(actions)")
  }

  /// The runs an order is cut into cover it in order, end between two slots, and are no more than asked
  /// for: fewer when slots are long (one slot is one run), one when asked for one.
  @Test(arguments: [1, 2, 3, 7, 40])
  func runsInSlotOrderAreWholeSlots(count: Int) {
    let proposals = Self.proposals(seed: 11)
    let order = proposals.indices.sorted { (proposals[$0].canonicalKey, $0) < (proposals[$1].canonicalKey, $1) }
    let runs = Reconciler.slotRuns(of: order, in: proposals, count: count)
    let slots = Set(proposals.map(\.canonicalKey)).count
    #expect(runs.count <= min(count, slots))
    #expect(count == 1 ? runs.count == 1 : runs.count > 1)
    #expect(runs.first?.lowerBound == 0)
    #expect(runs.last?.upperBound == order.count)
    for (before, after) in zip(runs, runs.dropFirst()) {
      #expect(before.upperBound == after.lowerBound)
      #expect(!before.isEmpty)
      #expect(proposals[order[before.upperBound - 1]].canonicalKey != proposals[order[after.lowerBound]].canonicalKey)
    }
    let oneSlot = Array(proposals.indices.filter { proposals[$0].canonicalKey == proposals[0].canonicalKey })
    #expect(Reconciler.slotRuns(of: oneSlot, in: proposals, count: count) == [0..<oneSlot.count])
  }

  /// Entries tied on kind and key, or on everything but the entity, ordered by `PlanOrder.entries` as by the
  /// full `EntryOrder` comparison, both ways round.
  @Test func comparingEntriesInPlaceIsTheFullComparison() {
    var generator = SeededGenerator(seed: 7)
    let entries = (0..<120).map { index -> PlanEntry in
      let token = UnifiedRefreshToken(
        homeAccountID: "uid.utid", environment: "login.microsoftonline.com",
        clientID: "client-\(Int.random(in: 0..<3, using: &generator))",
        secret: UnifiedSecret("rt-\(Int.random(in: 0..<3, using: &generator))"))
      let source = PlanSource(file: "dump.plist", itemIndex: Int.random(in: 0..<3, using: &generator), label: "ADAL")
      let action = [PlanAction.add, .conflict, .skip][Int.random(in: 0..<3, using: &generator)]
      return PlanEntry(
        action: action, entity: index % 5 == 0 ? nil : .refreshToken(token),
        reasonCode: ["plan.conflict", "adal.refresh-token"][Int.random(in: 0..<2, using: &generator)],
        reason: "\(index)", sources: Bool.random(using: &generator) ? [source] : [])
    }
    for lhs in entries {
      for rhs in entries {
        #expect(PlanOrder.entries(lhs, rhs) == (EntryOrder(lhs) < EntryOrder(rhs)))
      }
    }
  }

  /// Without an index and with index -1, `precedes` leaves two sources of a file unordered: those are
  /// still listed once each, the rest in order.
  @Test(arguments: [0, -1])
  func anAppsSourcesAreTheSetOfThemSorted(lowestIndex: Int) {
    var generator = SeededGenerator(seed: 3)
    let sources = (0..<500).map { _ in
      PlanSource(
        file: ["b.plist", "a.plist"][Int.random(in: 0..<2, using: &generator)],
        itemIndex: Bool.random(using: &generator) ? Int.random(in: lowestIndex..<40, using: &generator) : nil,
        label: ["ADAL MRRT", "ADAL AT"][Int.random(in: 0..<2, using: &generator)])
    }
    let listed = AppMetadataCollector.distinctInOrder(sources)
    #expect(listed.count == Set(sources).count)
    #expect(Set(listed) == Set(sources))
    if lowestIndex == 0 { #expect(listed == Set(sources).sorted(by: PlanSource.precedes)) }
  }

  /// The sources listed as one sort of the sources themselves by `precedes`, repeats dropped, lists them:
  /// files in and out of order (one repeated run of them as a dump gives), indices missing, -1 and repeated,
  /// labels breaking ties.
  @Test(arguments: [1, 2, 3, 4])
  func anAppsSourcesAreListedAsOneSortOfThemLists(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let files = ["dump.plist", "b.plist", "a.plist", "dump.plist#2"]
    let sources = (0..<2_000).map { position in
      let index = Int.random(in: -1..<300, using: &generator)
      return PlanSource(
        file: position % 97 == 0 ? files[Int.random(in: 0..<4, using: &generator)] : files[position / 700],
        itemIndex: Int.random(in: 0..<5, using: &generator) == 0 ? nil : index,
        label: ["ADAL MRRT", "ADAL AT", "ADAL FRT"][Int.random(in: 0..<3, using: &generator)])
    }
    var listed: [PlanSource] = []
    var unordered = false
    for source in sources.sorted(by: PlanSource.precedes) where listed.last != source {
      if let last = listed.last, !PlanSource.precedes(last, source) { unordered = true }
      listed.append(source)
    }
    var seen: Set<PlanSource> = []
    if unordered { listed = listed.filter { seen.insert($0).inserted } }
    #expect(AppMetadataCollector.distinctInOrder(sources) == listed)
  }

  /// Items of 25 users (one oid each) in shuffled positions: the clusters are the items of each oid, each in
  /// increasing order, listed in the order of their first item, as a plain grouping gives them.
  @Test func clustersAreTheUsersItemsInOrderOfTheirFirstItem() throws {
    var generator = SeededGenerator(seed: 5)
    let users = (0..<300).map { _ in Int.random(in: 0..<25, using: &generator) }
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    var items = try users.enumerated().map { index, user in
      let claims = ItemFactory.member(oid: "oid-\(user)", tid: "tid", upn: "user\(user)@contoso.com")
      let item = try ItemFactory.item(index: index, claims: claims, refreshToken: "rt-\(index)")
      return try #require(SourcedItem(item, file: "items", clouds: &clouds, unknown: &unknown))
    }
    for index in items.indices { items[index].ordinal = index }
    let plain = Dictionary(grouping: users.indices) { users[$0] }.values.map { $0.sorted() }
      .sorted { $0[0] < $1[0] }
    #expect(UserClusters.of(items) == plain)
  }

  /// One user whose items come in three spellings of two names, in turn: a name is lowercased once per run
  /// of a spelling, and every other name (lowercased, once each) is listed besides the newest item's.
  @Test func aUsersOtherNamesAreItsItemsNamesLowercased() throws {
    let names = ["Erin@Contoso.com", "ERIN@contoso.com", "Erin.Smith@Contoso.com", "Erin@Contoso.com"]
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    var items = try names.enumerated().map { index, name in
      let claims = ItemFactory.member(oid: "oid-1", tid: "tid", upn: name)
      let item = try ItemFactory.item(
        index: index, claims: claims, refreshToken: "rt-\(index)",
        expiresOn: Date(timeIntervalSince1970: index == 2 ? 2_000 : 1_000))
      return try #require(SourcedItem(item, file: "items", clouds: &clouds, unknown: &unknown))
    }
    for index in items.indices { items[index].ordinal = index }
    let users = IdentityResolver(existing: ExistingAccountIndex([])).resolve(items).users
    #expect(users.map(\.username) == ["Erin.Smith@Contoso.com"])
    #expect(users.map(\.otherUsernames) == [["erin@contoso.com"]])
  }

  /// Items one after another with the same oid and home account id, in turn in two clouds (and one spelled
  /// in capitals): a key made for the item before is taken only for the same cloud and id, so the clusters
  /// are the items of each cloud.
  @Test func itemsOfOneIdInTwoCloudsAreTwoUsers() throws {
    let authorities = ["https://login.microsoftonline.com/common", "https://login.chinacloudapi.cn/common"]
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    var items = try (0..<6).map { index in
      let claims = ItemFactory.member(oid: index == 4 ? "OID-1" : "oid-1", tid: "tid", upn: "user@contoso.com")
      let item = try ItemFactory.item(
        index: index, claims: claims, home: index == 5 ? "oid-2.tid" : "oid-1.tid",
        authority: authorities[index % 2], refreshToken: "rt-\(index)")
      return try #require(SourcedItem(item, file: "items", clouds: &clouds, unknown: &unknown))
    }
    for index in items.indices { items[index].ordinal = index }
    #expect(UserClusters.of(items) == [[0, 2, 4], [1, 3, 5]])
  }

  /// Collectors merged under the keys they made hold what one collector noting everything holds, and give
  /// their proposals in key order.
  @Test func mergedAppsAreTheAppsNotedInOne() {
    var generator = SeededGenerator(seed: 9)
    var whole = AppMetadataCollector()
    var parts = [AppMetadataCollector](repeating: AppMetadataCollector(), count: 4)
    for index in 0..<400 {
      let client = "Client-\(Int.random(in: 0..<30, using: &generator))"
      let environment = ["login.microsoftonline.com", "login.windows.net"][Int.random(in: 0..<2, using: &generator)]
      let family = Bool.random(using: &generator) ? "\(Int.random(in: 1..<3, using: &generator))" : nil
      let source = PlanSource(file: "dump.plist", itemIndex: index, label: "ADAL MRRT")
      whole.note(client: client, environment: environment, family: family, source: source)
      parts[index % parts.count].note(client: client, environment: environment, family: family, source: source)
    }
    var merged = AppMetadataCollector()
    for part in parts { merged.merge(part) }
    let (expected, made) = (whole.proposals(), merged.proposals())
    #expect(made.count > 30)  // both environments of many clients
    #expect(made.map(\.canonicalKey) == expected.map(\.canonicalKey))
    #expect(made.map(\.canonicalKey) == made.map(\.canonicalKey).sorted())
    #expect(made.map(\.entity) == expected.map(\.entity))
    #expect(made.map(\.sources) == expected.map(\.sources))
  }

  /// A collector that remembers the app it noted last, noting that app again after a merge has added keys
  /// (and grown its table), lists what a collector that only notes lists.
  @Test func notingAnAppAgainAfterAMergeListsWhatNotingAloneLists() {
    var whole = AppMetadataCollector()
    var mixed = AppMetadataCollector(sourcesPerApp: 2)
    var itemIndex = 0
    func source() -> PlanSource {
      itemIndex += 1
      return PlanSource(file: "dump.plist", itemIndex: itemIndex, label: "ADAL MRRT")
    }
    let environment = "login.microsoftonline.com"
    for round in 0..<200 {
      let client = "client-\(round % 3)"
      let (first, added, again) = (source(), source(), source())
      whole.note(client: client, environment: environment, family: nil, source: first)
      mixed.note(client: client, environment: environment, family: nil, source: first)
      var other = AppMetadataCollector()
      other.note(client: "new-\(round)", environment: environment, family: "1", source: added)
      whole.note(client: "new-\(round)", environment: environment, family: "1", source: added)
      mixed.merge(other)
      whole.note(client: client, environment: environment, family: nil, source: again)
      mixed.note(client: client, environment: environment, family: nil, source: again)
    }
    let (expected, made) = (whole.proposals(), mixed.proposals())
    #expect(made.count == 203)
    #expect(made.map(\.canonicalKey) == expected.map(\.canonicalKey))
    #expect(made.map(\.entity) == expected.map(\.entity))
    #expect(made.map(\.sources) == expected.map(\.sources))
  }

  /// Refresh token candidates of one kind and date are ranked by their tokens' fingerprints as texts, none
  /// (the empty text) first, whatever order they come in.
  @Test(arguments: [1, 2, 3])
  func refreshTokenCandidatesRankByFingerprintText(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    var clouds: [String: String] = [:]
    var unknown: Set<String> = []
    let date = Date(timeIntervalSince1970: 1_900_000_000)
    var items = try (0..<60).map { index in
      let token = Int.random(in: 0..<4, using: &generator)
      // Access token items (no refresh token) rank with tombstones: both kinds are in the list.
      let refreshToken: String? =
        switch token {
        case 0: nil
        case 1: ADALTokenKind.tombstoneMarker
        default: "rt-\(token)-\(index % 7)"
        }
      let item = try ItemFactory.item(
        index: index, claims: nil, refreshToken: refreshToken,
        accessToken: token == 0 ? "at-\(index)" : nil, resource: token == 0 ? "https://graph.microsoft.com" : nil,
        expiresOn: date)
      return try #require(SourcedItem(item, file: "items", clouds: &clouds, unknown: &unknown))
    }
    items.shuffle(using: &generator)
    for index in items.indices { items[index].ordinal = index }
    let ranked = RefreshTokenSelection.ordered(items)
    let byText = items.sorted { lhs, rhs in
      let (left, right) = (RefreshTokenSelection.rank(lhs.item.kind), RefreshTokenSelection.rank(rhs.item.kind))
      if left != right { return left < right }
      let (leftText, rightText) = (lhs.item.refreshToken?.fingerprint ?? "", rhs.item.refreshToken?.fingerprint ?? "")
      if leftText != rightText { return leftText < rightText }
      return lhs.ordinal < rhs.ordinal
    }
    #expect(items.contains { $0.item.refreshToken == nil })
    #expect(ranked.map(\.ordinal) == byText.map(\.ordinal))
  }
}
