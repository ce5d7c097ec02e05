import Adal2MSAL
import Adal2MSALSynthetic
import Foundation
import Testing

/// The synthetic generator (its own bplist and NSKeyedArchiver writer) against our reader: every item generated
/// must come back field for field, in every dump format, with no warnings.
struct SyntheticInputTests {
  static let users = 14

  static func dump(seed: UInt64 = 7, users: Int = users) -> SyntheticDump {
    var generator = SyntheticGenerator(seed: seed)
    return generator.dump(users: users)
  }

  @Test(arguments: SyntheticFormat.allCases)
  func readerReturnsExactlyTheGeneratedItems(format: SyntheticFormat) throws {
    let dump = Self.dump()
    let bytes = Data(format.encode(dump))
    let result = try ADALCacheReader().read(bytes, file: "synthetic.\(format.fileExtension)")

    let problems = result.diagnostics.filter { $0.severity > .note }
    #expect(problems.isEmpty, "warnings: \(problems.prefix(3))")
    #expect(result.ignoredItemCount == SyntheticDump.leadingOtherItems)
    try #require(result.items.count == dump.items.count)
    for (position, (read, expected)) in zip(result.items, dump.items).enumerated() {
      let context = Comment(rawValue: "item \(position): \(expected)")
      #expect(read.authority == expected.authority, context)
      #expect(read.resource == expected.resource, context)
      #expect(read.clientID == expected.clientID, context)
      #expect(read.familyID == expected.familyID, context)
      #expect(read.accessToken?.value == expected.accessToken, context)
      #expect(read.accessTokenType == (expected.accessToken == nil ? nil : "Bearer"), context)
      #expect(read.refreshToken?.value == expected.refreshToken, context)
      #expect(read.expiresOn == expected.expiresOn, context)
      #expect(read.cachedAt == expected.cachedAt, context)
      #expect(read.extendedExpiresOn == expected.extendedExpiresOn, context)
      #expect(read.homeAccountID == expected.homeAccountID, context)
      #expect(read.idToken?.value == expected.idToken, context)
      #expect(read.archivedUserID == expected.userID, context)
      #expect(read.archivedUserIDDisplayable == true, context)
      #expect(read.keychainUserID == expected.userID, context)
      #expect(read.source.service == expected.service, context)
      #expect(read.source.account == expected.account, context)
      #expect(read.source.accessGroup == SyntheticApps.accessGroup, context)
      #expect(read.source.created == expected.created, context)
      #expect(read.source.itemIndex == SyntheticDump.itemIndex(position), context)
      #expect(read.source.era.rawValue == expected.era.rawValue, context)
      #expect(read.kind.description == Self.kindName(expected), context)
      #expect(read.idTokenClaims?.oid == expected.user.objectID, context)
      #expect(read.idTokenClaims?.tid == expected.user.tenant.id, context)
      #expect(read.idTokenClaims?.ver == (expected.user.claimsVersion2 ? "2.0" : "1.0"), context)
      #expect(read.userID == expected.user.username, context)
    }
    // Equal values of one read are one copy (`ReadMemo`): an MRRT and its FRT copy hold one refresh token.
    func storage(_ text: String) -> UnsafeRawPointer? {
      text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }
    let pairs = zip(result.items, result.items.dropFirst()).filter {
      $0.refreshToken != nil && $0.refreshToken == $1.refreshToken
    }
    #expect(!pairs.isEmpty)
    for (mrrt, frt) in pairs {
      // Addresses taken first: a failure shows them, never the token.
      let (mrrtToken, frtToken) = (storage(mrrt.refreshToken!.value), storage(frt.refreshToken!.value))
      #expect(mrrtToken != nil)
      #expect(mrrtToken == frtToken)
      #expect(storage(mrrt.authority) == storage(frt.authority))
    }
  }

  static func kindName(_ item: SyntheticItem) -> String {
    switch item.kind {
    case .mrrt: "MRRT"
    case .frt: "FRT(1)"
    case .accessToken: "AT"
    }
  }

  @Test func sameSeedSameBytesOtherSeedOtherBytes() {
    for format in SyntheticFormat.allCases {
      #expect(format.encode(Self.dump(seed: 3, users: 5)) == format.encode(Self.dump(seed: 3, users: 5)))
      #expect(format.encode(Self.dump(seed: 3, users: 5)) != format.encode(Self.dump(seed: 4, users: 5)))
    }
  }

  /// The variety the benchmarks rely on, seen through the reader (not the generator's own model).
  @Test func coversCloudsErasClaimVersionsAndExpiries() throws {
    let dump = Self.dump(seed: 11, users: 300)
    let result = try ADALCacheReader().read(Data(SyntheticFormat.binaryPlist.encode(dump)))
    let environments = Set(result.items.compactMap(\.environment))
    #expect(
      environments.isSuperset(of: [
        "login.microsoftonline.com", "login.windows.net", "login.chinacloudapi.cn", "login.microsoftonline.us",
      ]))
    #expect(Set(result.items.map(\.source.era)) == Set(ADALEra.allCases))
    #expect(Set(result.items.compactMap { $0.idTokenClaims?.ver }) == ["1.0", "2.0"])
    #expect(result.items.contains { $0.homeAccountID != nil } && result.items.contains { $0.homeAccountID == nil })
    let now = Date(timeIntervalSince1970: TimeInterval(SyntheticGenerator.referenceNow))
    let accessTokens = result.items.filter { $0.kind == .accessToken }
    let expired = accessTokens.filter { ($0.expiresOn ?? now) < now }.count
    #expect(expired > accessTokens.count / 4 && expired < accessTokens.count * 3 / 4)
    #expect(result.items.contains { $0.kind == .familyRefreshToken(familyID: "1") })
    #expect(result.items.contains { $0.kind == .multiResourceRefreshToken })
    let tenants = Set(result.items.compactMap { $0.idTokenClaims?.tid })
    #expect(tenants.count == 10)
    // Access tokens are realistic in size (Azure AD v1 JWTs are around 1.2 to 2 KB).
    let sizes = accessTokens.compactMap { $0.accessToken?.value.utf8.count }
    #expect(sizes.allSatisfy { (1_100...2_400).contains($0) })
  }

  @Test func itemCountDumpsAndFleetDevicesAreExact() throws {
    var generator = SyntheticGenerator(seed: 5)
    #expect(generator.dump(itemCount: 123).items.count == 123)
    let fleetDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "synthetic-fleet-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: fleetDirectory) }
    let written = try SyntheticFleet.writeFleet(
      devices: 9, minItems: 10, maxItems: 12, format: nil, seed: 2, directory: fleetDirectory, workers: 3)
    let again = try SyntheticFleet.writeFleet(
      devices: 9, minItems: 10, maxItems: 12, format: nil, seed: 2,
      directory: fleetDirectory.appendingPathComponent("again"), workers: 1)
    #expect(written.files == 9 && written.items == again.items && written.bytes == again.bytes)
    var total = 0
    for index in 1...9 {
      let name = SyntheticFleet.deviceFileName(index, format: SyntheticFleet.format(ofDevice: index, nil))
      let data = try Data(contentsOf: fleetDirectory.appendingPathComponent(name))
      #expect(
        data == (try Data(contentsOf: fleetDirectory.appendingPathComponent("again").appendingPathComponent(name))))
      let items = try ADALCacheReader().read(data, file: name).items.count
      #expect((10...12).contains(items))
      total += items
    }
    #expect(total == written.items)
  }

  /// The binary plist writer beyond what dumps use: two-byte references, UTF-16 strings, large and negative
  /// integers, reals and shared strings.
  @Test func binaryPlistWriterRoundTripsThroughOurReader() throws {
    var writer = BinaryPlistWriter(maxObjects: 1_000)
    var elements: [BinaryPlistWriter.Ref] = []
    for index in 0..<300 { elements.append(writer.string("s\(index % 50)")) }
    let special = [
      writer.string("Émile Müller ✓"), writer.integer(-5), writer.integer(1 << 40), writer.real(2.5),
      writer.bool(true), writer.data([0, 1, 2, 255]), writer.date(Date(timeIntervalSince1970: 1_000_000_000)),
    ]
    let top = writer.dictionary(
      keys: [writer.string("many"), writer.string("special")], values: [writer.array(elements), writer.array(special)])
    let value = try PropertyListReader().read(Data(writer.finish(top: top))).value
    guard case .dictionary(let dictionary) = value, case .array(let many)? = dictionary["many"],
      case .array(let scalars)? = dictionary["special"]
    else {
      Issue.record("unexpected shape \(value.kindName)")
      return
    }
    #expect(many.count == 300 && many[299] == .string("s49"))
    #expect(
      scalars == [
        .string("Émile Müller ✓"), .integer(-5), .integer(1 << 40), .real(2.5), .bool(true),
        .data(Data([0, 1, 2, 255])),
        .date(Date(timeIntervalSince1970: 1_000_000_000)),
      ])
  }
}
