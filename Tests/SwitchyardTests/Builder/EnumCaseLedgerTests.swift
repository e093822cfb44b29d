import Testing

@testable import Switchyard

// What debug builds check every case index against: one index per case, as
// `Mirror` names the cases.

private enum Probe {
    case first(Int)
    case second(String)
    case third
}

private enum Overloaded {
    case move(to: Int)
    case move(by: Int)
    case stop
}

@Suite struct EnumCaseLedgerTests {
    @Test func anIndexThatDisagreesWithMirrorIsRefused() {
        #expect(EnumCaseLedger.agrees(0, with: Probe.first(1)))
        #expect(EnumCaseLedger.agrees(0, with: Probe.first(2)))
        #expect(EnumCaseLedger.agrees(2, with: Probe.third))
        // The same case at another index, and another case at a known index.
        #expect(!EnumCaseLedger.agrees(1, with: Probe.first(3)))
        #expect(!EnumCaseLedger.agrees(0, with: Probe.second("a")))
        #expect(!EnumCaseLedger.agrees(2, with: Probe.second("b")))
        #expect(EnumCaseLedger.agrees(1, with: Probe.second("c")))
    }

    @Test func casesSharingABaseNameAreToldApartByTheirLabels() throws {
        let reader = try #require(EnumCaseReader(for: Overloaded.self))
        let indices = [Overloaded.move(to: 1), .move(by: 1), .stop, .move(to: 2), .move(by: 2)].map {
            reader.caseIndex(of: $0)
        }
        #expect(indices == [0, 1, 2, 0, 1])
        #expect(
            EnumCaseLedger.caseName(of: Overloaded.move(to: 1)) != EnumCaseLedger.caseName(of: Overloaded.move(by: 1)))
    }

    @Test func valuesMirrorCannotNameAreNotChecked() {
        enum Printed: CustomStringConvertible {
            case a, b
            var description: String { "printed" }
        }
        #expect(EnumCaseLedger.caseName(of: Printed.a) == nil)
        #expect(EnumCaseLedger.caseName(of: Optional<Int>.none) == nil)
        #expect(EnumCaseLedger.agrees(5, with: Printed.b))
    }
}
