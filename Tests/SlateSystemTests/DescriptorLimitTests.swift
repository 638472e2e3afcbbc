import SlateSystem
import Testing

/// RLIMIT_NOFILE's soft limit, which `slate run` raises for the page.
@Suite struct DescriptorLimitTests {
    @Test func itIsRaisedTowardsAGoalAndNeverLowered() throws {
        let before = try #require(DescriptorLimit.current)
        #expect(DescriptorLimit.raise(toward: 16) == before)
        #expect(DescriptorLimit.current == before)
        let raised = try #require(DescriptorLimit.raise(toward: before + 1))
        #expect(raised >= before && raised <= before + 1)
        #expect(DescriptorLimit.current == raised)
    }
}
