import Adal2MSAL
import ArgumentParser
import Dispatch
import Foundation

/// Benchmarks and synthetic inputs. Run in release: `swift run -c release adal2msal-bench --help`.
struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adal2msal-bench",
    abstract: "Benchmarks (figures, not tests) and the synthetic input generator.",
    subcommands: [
      Plist.self, ADALReadBench.self, PlanBench.self, StoreBenchmark.self, StoreApplyChild.self, GenerateCommand.self,
      GenerateFleetCommand.self, PipelineBenchmark.self, PipelineStagesChild.self, MeasureCommandChild.self,
      FleetBenchmark.self, FleetReadChild.self, GenerateItemsChild.self, CompareBenchmark.self, CompareFloorChild.self,
    ]
  )
}

/// The entry point. The command runs on the cooperative pool while the main thread waits on a semaphore,
/// instead of parking in `dispatch_main` as an async `main` does: valgrind (callgrind, used to profile the
/// pipeline through `pipeline-stages`) cannot run a program whose main thread parks there.
@main
enum BenchMain {
  static func main() {
    // The in-process stages (`pipeline`, `plan`, ...) measure with the allocator settings `adal2msal` runs with.
    AllocatorTuning.apply(environment: ProcessInfo.processInfo.environment)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await BenchCommand.main()
      done.signal()
    }
    done.wait()
  }
}

/// A benchmark that could not be measured (a contender failed, a child printed nothing, a file could not be read).
/// Not a `ValidationError`, which is for the options given: those print the usage and exit 64, these exit 1.
struct BenchFailure: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
