// swift-tools-version:6.1
// adal2msal: migrate ADAL token caches (iOS keychain dumps, macOS blobs) into the MSAL unified cache, offline.
//
// One library module per pipeline stage:
//   PropertyLists    binary/XML property lists and NSKeyedArchiver archives
//   ADALCache        ADAL items from keychain dumps and macOS blobs
//   UnifiedCache     the MSAL unified cache model, its JSON and its keychain items
//   MigrationEngine  identity resolution, mapping, the plan (the diff) and its reports
//   CacheStore       the unified cache in SQLite (GRDB)
// plus the umbrella `Adal2MSAL` for pipeline authors and the thin executable `Adal2MSALCLI` (binary: `adal2msal`).
import PackageDescription

let package = Package(
  name: "adal2msal",
  // macOS 15: the property-list readers keep 128-bit integers as `Int128`, and validate UTF-8 with
  // `String(validating:as:)`; both are in the standard library from macOS 15 on.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Adal2MSAL", targets: ["Adal2MSAL"]),
    // The binary keeps the tool's name; the target's differs from the library's by more than case (a Mac's
    // default file system cannot hold Sources/Adal2MSAL beside Sources/adal2msal).
    .executable(name: "adal2msal", targets: ["Adal2MSALCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // libxml2's streaming reader for XML property lists. The shim keeps ICU headers out (see docs/building.md).
    .systemLibrary(
      name: "CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),

    // glibc's allocator controls (`AllocatorTuning`, `returnFreedMemory`).
    .systemLibrary(name: "CMalloc"),
    // Linux's `sync_file_range` (`Writeback`).
    .systemLibrary(name: "CWriteback"),

    .target(
      name: "Adal2MSALSupport",
      dependencies: ["CMalloc", "CWriteback", .product(name: "Crypto", package: "swift-crypto")]),
    .target(name: "PropertyLists", dependencies: ["Adal2MSALSupport", "CLibXML2"]),
    .target(name: "UnifiedCache", dependencies: ["Adal2MSALSupport"]),
    .target(name: "ADALCache", dependencies: ["Adal2MSALSupport", "PropertyLists", "UnifiedCache"]),
    .target(name: "MigrationEngine", dependencies: ["Adal2MSALSupport", "ADALCache", "UnifiedCache"]),
    .target(
      name: "CacheStore",
      dependencies: [
        "Adal2MSALSupport", "UnifiedCache", "MigrationEngine",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .target(
      name: "Adal2MSAL",
      dependencies: ["Adal2MSALSupport", "PropertyLists", "ADALCache", "UnifiedCache", "MigrationEngine", "CacheStore"]),

    .executableTarget(
      name: "Adal2MSALCLI",
      dependencies: ["Adal2MSAL", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    // Realistic synthetic ADAL inputs (an independent bplist / NSKeyedArchiver writer), for benchmarks and tests.
    .target(name: "Adal2MSALSynthetic", dependencies: ["Adal2MSALSupport"]),
    // Benchmarks and the synthetic-input generator: `swift run -c release adal2msal-bench --help`.
    .executableTarget(
      name: "adal2msal-bench",
      dependencies: [
        "Adal2MSAL", "Adal2MSALSynthetic", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]),

    // Shared test helpers (fixture paths, golden files, running the built binary). Not API.
    .target(
      name: "_Adal2MSALTestSupport", dependencies: ["Adal2MSALSupport", "Adal2MSALSynthetic"],
      path: "Tests/_Adal2MSALTestSupport"),

    // Allocates in a process of its own, for AllocatorTuningTests (glibc's choices depend on the heaps' history).
    .executableTarget(
      name: "allocator-probe", dependencies: ["Adal2MSALSupport", "CMalloc"], path: "Tests/AllocatorProbe"),
    .testTarget(name: "Adal2MSALSupportTests", dependencies: ["Adal2MSALSupport", "_Adal2MSALTestSupport"]),
    .testTarget(
      name: "PropertyListsTests", dependencies: ["_Adal2MSALTestSupport", "PropertyLists"]),
    .testTarget(name: "UnifiedCacheTests", dependencies: ["_Adal2MSALTestSupport", "UnifiedCache"]),
    .testTarget(
      name: "ADALCacheTests", dependencies: ["_Adal2MSALTestSupport", "ADALCache", "PropertyLists", "UnifiedCache"]),
    // Golden files are read from the source tree (`Fixtures.repositoryRoot`), not bundled.
    .testTarget(
      name: "MigrationEngineTests", dependencies: ["_Adal2MSALTestSupport", "MigrationEngine"], exclude: ["Golden"]),
    .testTarget(name: "CacheStoreTests", dependencies: ["_Adal2MSALTestSupport", "CacheStore"]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["Adal2MSAL", "Adal2MSALSynthetic", "_Adal2MSALTestSupport"],
      exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
