import Testing

// The SCXML interpreter of the export's round trip, checked on its own: each
// document is small, and what it does was worked out by hand from the W3C
// recommendation's algorithm (Appendix D), so that the round trip compares
// the machines with SCXML, not with a copy of their own rules.

private typealias Microstep = SCXMLInterpreter.Microstep

/// The document whose `<scxml>` holds `body` and starts in `initial`, started.
private func started(initial: String, _ body: String) throws -> SCXMLInterpreter {
    var chart = try SCXMLInterpreter(
        document: """
            <?xml version="1.0" encoding="UTF-8"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="\(initial)">
            \(body)
            </scxml>
            """)
    chart.start()
    return chart
}

private func step(exits: [String] = [], entries: [String] = []) -> Microstep {
    Microstep(exits: exits, entries: entries)
}

@Suite struct SCXMLInterpreterTests {
    @Test func aTransitionOfADescendantPreemptsAConflictingOneWhicheverRegionSelectsFirst() throws {
        for regions in [("r1", "r2"), ("r2", "r1")] {
            var chart = try started(
                initial: "p",
                """
                <parallel id="p">
                    <transition event="e" target="out"/>
                    <state id="\(regions.0)"><state id="a"><transition event="e" target="a2"/></state><state id="a2"/></state>
                    <state id="\(regions.1)"><state id="b"/></state>
                </parallel>
                <state id="out"/>
                """)
            let macrostep = chart.send("e")
            #expect(macrostep.isConsumed)
            #expect(macrostep.microsteps == [step(exits: ["a"], entries: ["a2"])])
        }
    }

    @Test func transitionsOfRegionsThatDoNotConflictFireInOneMicrostepExitedInReverseDocumentOrder() throws {
        var chart = try started(
            initial: "p",
            """
            <parallel id="p">
                <state id="r1"><state id="a"><transition event="e" target="a2"/></state><state id="a2"/></state>
                <state id="r2"><state id="b"><transition event="e" target="b2"/></state><state id="b2"/></state>
            </parallel>
            """)
        #expect(chart.configuration == ["p", "r1", "a", "r2", "b"])
        #expect(chart.send("e").microsteps == [step(exits: ["b", "a"], entries: ["a2", "b2"])])
        #expect(chart.configuration == ["p", "r1", "a2", "r2", "b2"])
    }

    @Test func anInternalTransitionStaysInItsCompoundSourceAndAnExternalOneLeavesIt() throws {
        var chart = try started(
            initial: "s",
            """
            <state id="s">
                <transition event="inward" target="s2" type="internal"/>
                <transition event="outward" target="s1"/>
                <transition event="self" target="s" type="internal"/>
                <state id="s1"/>
                <state id="s2"/>
            </state>
            """)
        #expect(chart.send("inward").microsteps == [step(exits: ["s1"], entries: ["s2"])])
        #expect(chart.send("outward").microsteps == [step(exits: ["s2", "s"], entries: ["s", "s1"])])
        // Its target is not inside it: `type="internal"` changes nothing.
        #expect(chart.send("self").microsteps == [step(exits: ["s1", "s"], entries: ["s", "s1"])])
    }

    @Test func shallowHistoryEntersItsDefaultThenWhatItRecorded() throws {
        var chart = try started(
            initial: "off",
            """
            <state id="off"><transition event="on" target="h"/></state>
            <state id="on" initial="a">
                <history id="h"><transition target="b"/></history>
                <transition event="off" target="off"/>
                <state id="a"><transition event="next" target="b"/></state>
                <state id="b"><transition event="next" target="a"/></state>
            </state>
            """)
        #expect(chart.send("on").microsteps == [step(exits: ["off"], entries: ["on", "b"])])
        #expect(chart.send("next").microsteps == [step(exits: ["b"], entries: ["a"])])
        #expect(chart.send("off").microsteps == [step(exits: ["a", "on"], entries: ["off"])])
        #expect(chart.send("on").microsteps == [step(exits: ["off"], entries: ["on", "a"])])
    }

    @Test func deepHistoryRestoresTheAtomicStatesAndShallowHistoryTheChild() throws {
        for (type, restored) in [("deep", ["on", "inner", "i2"]), ("shallow", ["on", "inner", "i1"])] {
            var chart = try started(
                initial: "on",
                """
                <state id="on">
                    <history id="h" type="\(type)"><transition target="x"/></history>
                    <transition event="off" target="off"/>
                    <state id="inner">
                        <state id="i1"><transition event="next" target="i2"/></state>
                        <state id="i2"/>
                    </state>
                    <state id="x"/>
                </state>
                <state id="off"><transition event="on" target="h"/></state>
                """)
            chart.send("next")
            chart.send("off")
            #expect(chart.send("on").microsteps == [step(exits: ["off"], entries: restored)])
        }
    }

    @Test func aTransitionToAHistoryTakesItsDomainFromWhatTheHistoryEnters() throws {
        // Before `deck` records anything, its history enters `playing`: the
        // domain of `back` is `deck`, which it does not leave.
        var chart = try started(
            initial: "deck",
            """
            <state id="deck">
                <history id="h"><transition target="playing"/></history>
                <state id="playing"><transition event="pause" target="paused"/></state>
                <state id="paused"><transition event="back" target="h"/></state>
            </state>
            """)
        chart.send("pause")
        #expect(chart.send("back").microsteps == [step(exits: ["paused"], entries: ["playing"])])
    }

    @Test func anInitialElementMayEnterThroughAHistory() throws {
        let chart = try started(
            initial: "deck",
            """
            <state id="deck">
                <initial><transition target="h"/></initial>
                <history id="h"><transition target="paused"/></history>
                <state id="playing"/>
                <state id="paused"/>
            </state>
            """)
        #expect(chart.configuration == ["deck", "paused"])
    }

    @Test func aFinalChildRaisesDoneForItsParentAndAParallelStateIsDoneWhenEveryRegionIs() throws {
        var chart = try started(
            initial: "p",
            """
            <parallel id="p">
                <transition event="done.state.p" target="x"/>
                <state id="r1"><state id="a"><transition event="e" target="af"/></state><final id="af"/></state>
                <state id="r2"><state id="b"><transition event="e" target="bf"/></state><final id="bf"/></state>
            </parallel>
            <state id="x"/>
            """)
        #expect(
            chart.send("e").microsteps == [
                step(exits: ["b", "a"], entries: ["af", "bf"]),
                step(exits: ["bf", "r2", "af", "r1", "p"], entries: ["x"]),
            ])
    }

    @Test func aFinalChildOfTheDocumentFinishesItExitingEveryState() throws {
        var chart = try started(
            initial: "job",
            """
            <state id="job">
                <transition event="done.state.job" target="idle"/>
                <state id="work"><transition event="finish" target="fin"/></state>
                <final id="fin"/>
            </state>
            <state id="idle"><transition event="stop" target="end"/></state>
            <final id="end"/>
            """)
        #expect(
            chart.send("finish").microsteps == [
                step(exits: ["work"], entries: ["fin"]), step(exits: ["fin", "job"], entries: ["idle"]),
            ])
        let stop = chart.send("stop")
        #expect(stop.microsteps == [step(exits: ["idle"], entries: ["end"])])
        #expect(stop.finish == ["end"])
        #expect(chart.isFinished)
        #expect(chart.configuration == ["end"])
        #expect(!chart.send("stop").isConsumed)
    }

    @Test func eventlessTransitionsRunUntilNoneIsEnabled() throws {
        var document = try SCXMLInterpreter(
            document: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
                    <state id="a"><transition target="b"/></state>
                    <state id="b"><transition target="c"/></state>
                    <state id="c"/>
                </scxml>
                """)
        let start = document.start()
        #expect(
            start.microsteps == [
                step(entries: ["a"]), step(exits: ["a"], entries: ["b"]), step(exits: ["b"], entries: ["c"]),
            ])
    }

    @Test(arguments: [
        ("*", "anything", true),
        ("to", "to.b", true),
        ("to.*", "to.b", true),
        ("to.", "to.b", true),
        ("to.a", "to.a.b", true),
        ("to.a", "to.ab", false),
        ("to.a.b", "to.a", false),
        ("e", "e1", false),
        ("done.state.x", "done.state.x", true),
        ("done.state.x", "done.state.xy", false),
    ])
    func eventDescriptorsMatchTokenWisePrefixes(descriptor: String, name: String, matches: Bool) {
        #expect(SCXMLInterpreter.nameMatch([descriptor], name) == matches)
    }

    @Test(arguments: [
        #"<state id="a"><transition event="e" cond="x" target="a"/></state>"#,
        #"<state id="a"><transition event="e" target="nowhere"/></state>"#,
        #"<state id="a"><onentry><raise event="e"/></onentry></state>"#,
        #"<datamodel/><state id="a"/>"#,
        #"<state id="a"/><state id="a"/>"#,
    ])
    func whatItDoesNotReadIsAnError(body: String) {
        #expect(throws: SCXMLInterpreter.ReadingError.self) { try started(initial: "a", body) }
    }
}
