import Switchyard
import Testing

private enum Panel: StateType, CaseIterable {
    case a, a1, a2, b, p, left, right
}

private enum PanelEvent: EventType, CaseIterable {
    case reset, jump, next, leave, enter
}

/// What a person reads in a DOT drawing: a compound state's own routes at
/// its cluster, its initial child marked apart, no stray point in a parallel
/// state, and labels of opposite edges apart.
@Suite struct DOTReadingTests {
    private func dot() -> String {
        Machine<Panel, PanelEvent>(state: .a) { machine in
            machine.addChildren([.a1, .a2], to: .a)
            machine.addRegions([.left, .right], to: .p)
            machine.addRoutes(event: .reset, transitions: [.a => .a])
            machine.addRoutes(event: .jump, transitions: [.local(.a => .a2)])
            machine.addRoutes(event: .next, transitions: [.a1 => .a2, .a2 => .a1])
            machine.addRoutes(event: .leave, transitions: [.a => .b])
            machine.addRoutes(event: .enter, transitions: [.b => .p, .p => .b])
        }
        .describe().dot()
    }

    /// The id DOT gives `state`, read from its node's line.
    private func id(of label: String, in dot: String) throws -> String {
        let line = try #require(dot.split(separator: "\n").first { $0.hasSuffix("[label=\"\(label)\"];") })
        return String(line.trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
    }

    private func clusterID(of label: String, in dot: String) throws -> String {
        let lines = dot.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let labelLine = try #require(lines.firstIndex(of: "label=\"\(label)\";"))
        // `subgraph cluster_ID {` opens the cluster, one line above its label.
        return String(lines[labelLine - 1].dropFirst("subgraph cluster_".count).dropLast(2))
    }

    @Test func aCompoundStatesOwnRoutesStartAtItsClusterNotAtItsInitialMark() throws {
        let dot = dot()
        let a = try clusterID(of: "a", in: dot)
        let a1 = try id(of: "a1", in: dot)
        let a2 = try id(of: "a2", in: dot)
        // The state's point is unseen; the initial child has its own mark.
        #expect(dot.contains("\(a) [shape=point, style=invis, width=0.01];"))
        #expect(dot.contains("\(a)_initial [shape=point, width=0.1];"))
        #expect(dot.contains("\(a)_initial -> \(a1);"))
        // The self-loop and the local route leave the state, not the mark.
        #expect(dot.contains("\(a) -> \(a) [label=\" reset \"];"))
        #expect(dot.contains("\(a) -> \(a2) [label=\" jump (local) \"];"))
        #expect(!dot.contains("\(a)_initial -> \(a2)"))
        #expect(!dot.contains("\(a)_initial -> \(a) "))
        // A route out of it is clipped at its border.
        let b = try id(of: "b", in: dot)
        #expect(dot.contains("\(a) -> \(b) [label=\" leave \", ltail=cluster_\(a)];"))
    }

    @Test func aParallelStateHasNoVisiblePoint() throws {
        let dot = dot()
        let p = try clusterID(of: "p (parallel)", in: dot)
        #expect(dot.contains("\(p) [shape=point, style=invis, width=0.01];"))
        #expect(!dot.contains("\(p)_initial"))
        // Every visible point is the start or an initial mark.
        let points = dot.split(separator: "\n").filter { $0.contains("shape=point") && !$0.contains("style=invis") }
        #expect(points.allSatisfy { $0.contains("start [") || $0.contains("_initial [") })
    }

    @Test func labelsOfOppositeEdgesHaveRoomBetweenThem() throws {
        let dot = dot()
        let a1 = try id(of: "a1", in: dot)
        let a2 = try id(of: "a2", in: dot)
        #expect(dot.contains("\(a1) -> \(a2) [label=\" next \"];"))
        #expect(dot.contains("\(a2) -> \(a1) [label=\" next \"];"))
    }
}
