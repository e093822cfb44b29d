import Testing

@testable import Switchyard

// The escaping SCXMLWriter relies on for a well-formed document whatever a
// state's or an event's description holds.
@Suite struct SCXMLWriterTests {
    @Test func attributeValuesEscapeMarkupQuotesAndLineBreaks() {
        #expect(SCXMLWriter.attribute("a&b<c>d\"e'f\ng") == "\"a&amp;b&lt;c&gt;d&quot;e&apos;f&#10;g\"")
        #expect(SCXMLWriter.attribute("bell\u{7}") == "\"bell\"")
    }

    @Test func commentsNeverHoldTwoDashesOrEndWithOne() {
        #expect(SCXMLWriter.comment("a--b---") == "<!-- a- -b- - - -->")
        #expect(SCXMLWriter.comment("two\nlines") == "<!-- two\\nlines -->")
    }

    @Test func aTransitionWrittenInACommentKeepsItsMarkupAndLosesItsDoubleDashes() {
        #expect(
            SCXMLWriter.comment(#"left out: <transition event="re--open" target="x---y-"/>-"#)
                == #"<!-- left out: <transition event="re- -open" target="x- - -y-"/>- -->"#)
    }

    @Test(arguments: [
        ("stopped", "stopped"),
        ("a b", "a_b"),
        ("1st", "_1st"),
        ("-x", "_-x"),
        ("é.v-2_", "_.v-2_"),
        ("", "_"),
    ])
    func namesAreNCNames(description: String, name: String) {
        #expect(SCXMLWriter.name(description) == name)
    }

    @Test(arguments: [
        ("a.b", "a_b"),
        ("a b.c", "a_b_c"),
        ("é.v-2_", "__v-2_"),
        ("1.5", "_1_5"),
    ])
    func stateIDsAreNamesWithoutDots(description: String, id: String) {
        #expect(SCXMLWriter.stateID(description) == id)
    }

    @Test(arguments: [
        ("play", "play"),
        ("a b", "a_b"),
        ("a.b", "a_b"),
        ("to.c", "to_c"),
        ("to", "_to"),
        ("done", "_done"),
        ("error", "_error"),
        ("toast", "toast"),
        ("1st", "_1st"),
    ])
    func eventNamesAreNamesWithoutDotsOrTheExportsOwnFirstWords(description: String, name: String) {
        #expect(SCXMLWriter.eventName(description) == name)
    }
}
