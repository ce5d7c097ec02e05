import Adal2MSAL
import ArgumentParser

/// Benchmarks and synthetic inputs. Run in release: `swift run -c release adal2msal-bench --help`.
@main
struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adal2msal-bench",
    abstract: "Benchmarks (figures, not tests) and the synthetic input generator.",
    subcommands: [Plist.self, ADALReadBench.self, PlanBench.self, StoreBenchmark.self, StoreApplyChild.self]
  )
}
