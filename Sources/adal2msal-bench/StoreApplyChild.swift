import Adal2MSAL
import ArgumentParser
import Foundation

/// Applies a synthetic plan to a store and exits: the child process of the store's crash-safety and
/// concurrency tests (which kill it or run two at once). Hidden from help.
struct StoreApplyChild: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store-apply-child",
    abstract: "Apply a synthetic plan of N access tokens to a store (test helper).",
    shouldDisplay: false)

  @Option(help: "The store file.")
  var db: String

  @Option(help: "How many access tokens the plan adds.")
  var rows: Int = 200_000

  @Option(help: "The seed; different seeds give disjoint keys.")
  var seed: UInt64 = 1

  func run() async throws {
    let plan = SyntheticStorePlan.make(count: max(0, rows), seed: seed)
    do {
      let store = try CacheStore.open(path: db)
      FileHandle.standardOutput.write(Data("applying \(rows)\n".utf8))
      let summary = try store.apply(plan, options: ApplyOptions(recordedOptions: ["seed": .number(String(seed))]))
      print("applied run \(summary.runID): \(summary.rowsInserted) inserted")
    } catch {
      FileHandle.standardError.write(Data("store-apply-child: \(error)\n".utf8))
      throw ExitCode(1)
    }
  }
}
