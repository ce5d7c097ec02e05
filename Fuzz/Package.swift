// swift-tools-version:6.1
// libFuzzer targets for every reader of adal2msal. Not part of the root package: they only build with
// `-sanitize=fuzzer` (which supplies `main`). Build and run them with `scripts/fuzz.sh` (see docs/fuzzing.md).
import Foundation
import PackageDescription

// A path dependency's identity is the name of its directory (`main` in /work/main, the worktree's name
// elsewhere), not the package's name, so it is computed from where this manifest lives.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .lastPathComponent.lowercased()

let targets = [
  "fuzz-binary-plist", "fuzz-xml-plist", "fuzz-keyed-archive", "fuzz-unified-json", "fuzz-adal-dump",
  "fuzz-pipeline",
]

let package = Package(
  name: "adal2msal-fuzz",
  platforms: [.macOS(.v15)],
  products: targets.map { .executable(name: $0, targets: [$0]) },
  dependencies: [.package(path: "..")],
  targets: [.target(name: "FuzzDriver")]
    + targets.map {
      .executableTarget(
        name: $0, dependencies: ["FuzzDriver", .product(name: "Adal2MSAL", package: rootIdentity)],
        path: "Sources/\($0)")
    },
  swiftLanguageModes: [.v6]
)
