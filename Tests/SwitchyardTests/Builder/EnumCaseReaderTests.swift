import Testing

@testable import Switchyard

// The case index read through the value witness table, checked against the
// layout the ABI documents: payload cases first, in declaration order, then
// the empty cases, in declaration order.

private final class Reference {}

private enum Mixed {
    case empty
    case number(Int)
    case none
    case text(String)
    case reference(Reference)
    case other(Reference)
}

private indirect enum List {
    case end
    case cell(Int, List)
}

private enum OneEmpty {
    case only
}

private enum OnePayload {
    case only(Int)
}

private enum Plain {
    case a, b, c
}

@Suite struct EnumCaseReaderTests {
    @Test func payloadCasesComeFirstThenEmptyCasesEachInDeclarationOrder() throws {
        let reader = try #require(EnumCaseReader(for: Mixed.self))
        let reference = Reference()
        #expect(reader.caseIndex(of: Mixed.number(1)) == 0)
        #expect(reader.caseIndex(of: Mixed.text("a")) == 1)
        #expect(reader.caseIndex(of: Mixed.reference(reference)) == 2)
        #expect(reader.caseIndex(of: Mixed.other(reference)) == 3)
        #expect(reader.caseIndex(of: Mixed.empty) == 4)
        #expect(reader.caseIndex(of: Mixed.none) == 5)
    }

    @Test func indirectSingleCaseNoPayloadAndOptionalEnumsAreRead() throws {
        let list = try #require(EnumCaseReader(for: List.self))
        #expect(list.caseIndex(of: List.cell(1, .end)) == 0)
        #expect(list.caseIndex(of: List.end) == 1)
        #expect(try #require(EnumCaseReader(for: OneEmpty.self)).caseIndex(of: OneEmpty.only) == 0)
        #expect(try #require(EnumCaseReader(for: OnePayload.self)).caseIndex(of: OnePayload.only(7)) == 0)
        let plain = try #require(EnumCaseReader(for: Plain.self))
        #expect([Plain.a, .b, .c].map { plain.caseIndex(of: $0) } == [0, 1, 2])
        let optional = try #require(EnumCaseReader(for: Int?.self))
        #expect(optional.caseIndex(of: Int?.some(0)) == 0)
        #expect(optional.caseIndex(of: Int?.none) == 1)
    }

    @Test func typesThatAreNotEnumsGetNoReader() {
        struct Point { var x: Int }
        #expect(EnumCaseReader(for: Point.self) == nil)
        #expect(EnumCaseReader(for: Reference.self) == nil)
        #expect(EnumCaseReader(for: Int.self) == nil)
        #expect(EnumCaseReader(for: (Int, Int).self) == nil)
    }
}
