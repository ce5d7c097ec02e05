import Adal2MSALSupport

extension InputLimits {
  /// The most values a property list or keyed archive of `objectCount` objects may expand to through shared
  /// references: `maxExpansionFactor` per object (an empty one counts as one), never above `maxObjects`.
  /// Every reader that builds or walks a tree stops there, so that a few objects referenced many times
  /// cannot make it build or visit an exponential number of values.
  func maxExpandedNodes(objectCount: Int) -> Int {
    let (expansion, overflow) = maxExpansionFactor.multipliedReportingOverflow(by: max(objectCount, 1))
    return min(maxObjects, overflow ? Int.max : expansion)
  }
}
